import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as durableFile from '../../../platform/durable-file';
import { StagedImage } from '../../../simulator/device/staged-image';
import { STATE_FILE, StateStore, type PersistedUpload } from '../../../simulator/device/state';
import { uniqueSerial, useScratchDir } from '../helpers/fixtures';

vi.mock('../../../platform/durable-file', async (importOriginal) => {
  const actual = await importOriginal<typeof durableFile>();
  return { ...actual, writeFileAtomic: vi.fn(actual.writeFileAtomic) };
});

const scratch = useScratchDir('state-store');

async function openStore(): Promise<StateStore> {
  const serialNumber = uniqueSerial('EPC');
  return StateStore.open(join(scratch.dir, serialNumber), {
    serialNumber,
    deviceType: 'EPC',
    model: 'EPC-E4',
    firmwareVersion: '1.0.0',
  });
}

function receiving(ackedOffset: number): PersistedUpload {
  return {
    size: 1 << 20,
    sha256: '00'.repeat(32),
    version: '2.0.0',
    deviceType: 'EPC',
    signedManifest: '00',
    ackedOffset,
    state: 'receiving',
    error: null,
  };
}

const onDisk = async (store: StateStore) =>
  JSON.parse(await readFile(join(store.dir, STATE_FILE), 'utf8')) as { upload: PersistedUpload | null };
const writes = () => vi.mocked(durableFile.writeFileAtomic).mock.calls.length;

describe('StateStore and the staged image', () => {
  it('writes gathered image bytes to the bank before it saves the progress that covers them', async () => {
    const store = await openStore();
    const staged = new StagedImage(store.stagedImagePath);
    const bytes = Uint8Array.from({ length: 3000 }, (_, i) => i & 0xff);
    await staged.write(0, bytes.subarray(0, 1024));
    await staged.write(1024, bytes.subarray(1024));
    store.current.upload = receiving(3000);
    await store.save();
    expect((await onDisk(store)).upload?.ackedOffset).toBe(3000);
    expect(Buffer.compare(await readFile(store.stagedImagePath), Buffer.from(bytes))).toBe(0);
    await staged.close();
  });

  it('never saves progress over bytes that arrived while the bank was being written', async () => {
    const store = await openStore();
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff);
    /** A bank whose first flush lets a block arrive while it writes, as the device's link does. */
    class BlockDuringFlush extends StagedImage {
      arrive: (() => Promise<void>) | undefined;
      override flush(): Promise<void> {
        const writing = super.flush();
        const arrive = this.arrive;
        this.arrive = undefined;
        return arrive === undefined ? writing : Promise.all([writing, arrive()]).then(() => undefined);
      }
    }
    const staged = new BlockDuringFlush(store.stagedImagePath);
    await staged.write(0, bytes.subarray(0, 3072));
    store.current.upload = receiving(3072);
    staged.arrive = async () => {
      await staged.write(3072, bytes.subarray(3072));
      store.current.upload!.ackedOffset = 4096;
    };
    await store.save();
    const saved = (await onDisk(store)).upload!.ackedOffset;
    const onBank = (await readFile(store.stagedImagePath)).length;
    expect(saved).toBeLessThanOrEqual(onBank);
    await staged.close();
  });

  it('writes a burst of progress alone once, a state change at once, and what is pending when the power goes', async () => {
    const store = await openStore();
    store.current.upload = receiving(0);
    await store.save();
    const before = writes();
    const progress: Promise<void>[] = [];
    for (let offset = 1024; offset <= 64 * 1024; offset += 1024) {
      store.current.upload.ackedOffset = offset;
      progress.push(store.save());
    }
    await Promise.all(progress);
    // 64 blocks' progress, held back as progress only: one write (two if one had already started).
    expect(writes() - before).toBeLessThanOrEqual(2);
    expect((await onDisk(store)).upload?.ackedOffset).toBe(64 * 1024);

    // Progress, then a state change right after: with the clock stopped, the progress would wait
    // forever; the state change is written at once, and the progress with it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      store.current.upload.ackedOffset = 65 * 1024;
      const held = store.save();
      store.current.upload.state = 'received';
      await store.save();
      await held;
    } finally {
      vi.useRealTimers();
    }
    expect((await onDisk(store)).upload).toMatchObject({ state: 'received', ackedOffset: 65 * 1024 });

    // A power cut (reload) writes the pending progress first, as it always did.
    store.current.upload.ackedOffset = 66 * 1024;
    void store.save();
    await store.reload();
    expect(store.current.upload?.ackedOffset).toBe(66 * 1024);
  });
});
