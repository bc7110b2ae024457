import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../../main/cloud';
import { ConfigFileStore } from '../../../../main/engine/jobs/config-file-store';
import { IntentJournal } from '../../../../main/engine/jobs/intent-journal';
import { SigningKeyStore, type SigningKeySource } from '../../../../main/engine/jobs/signing-key-store';
import type { QuarantinedFile } from '../../../../platform/quarantine';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * The stores under the data directory (kept configuration files, the intent journal, the signing
 * key) meet garbage and truncated files: each starts, reports the file, keeps its bytes in
 * quarantine/, and still has every good entry.
 */

const scratch = useScratchDirPerTest('stores-quarantine');
let reported: QuarantinedFile[];

beforeEach(async () => {
  reported = [];
});

async function quarantined(storeDir: string): Promise<Map<string, Buffer>> {
  const names = await readdir(join(storeDir, 'quarantine')).catch(() => [] as string[]);
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(join(storeDir, 'quarantine', name))] as const)),
  );
}

/** The quarantined file that was `name`, by its original name at the end. */
function byOriginal(files: Map<string, Buffer>, name: string): Buffer | undefined {
  return [...files].find(([stored]) => stored.endsWith(`-${name}`))?.[1];
}

describe('kept configuration files', () => {
  const store = () =>
    new ConfigFileStore({
      dir: scratch.dir,
      now: () => Date.parse('2026-02-03T04:05:06.789Z'),
      onQuarantine: (f) => reported.push(f),
    });

  it('lists the good descriptions and quarantines a garbage or truncated one', async () => {
    await store().put('EPC000101', new Uint8Array([1, 2, 3]), 'sync-1');
    await store().put('EPC000102', new Uint8Array([4, 5, 6]), 'sync-2');
    const truncated = (await readFile(join(scratch.dir, 'EPC000102.json'))).subarray(0, 20);
    await writeFile(join(scratch.dir, 'EPC000102.json'), truncated);
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0x01]);
    await writeFile(join(scratch.dir, 'EPC000103.json'), garbage);

    const listed = await store().list();
    expect(listed.map((m) => m.serialNumber)).toEqual(['EPC000101']);
    expect(reported.map((f) => basename(f.from)).sort()).toEqual(['EPC000102.json', 'EPC000103.json']);
    const files = await quarantined(scratch.dir);
    expect(byOriginal(files, 'EPC000102.json')?.equals(truncated)).toBe(true);
    expect(byOriginal(files, 'EPC000103.json')?.equals(garbage)).toBe(true);
    expect([...files.keys()].every((name) => name.startsWith('2026-02-03T04-05-06.789Z-'))).toBe(true);
    // The good one is untouched, and a second look reports nothing new.
    expect(await readFile(join(scratch.dir, 'EPC000101.cbor'))).toEqual(Buffer.from([1, 2, 3]));
    reported = [];
    expect((await store().list()).map((m) => m.serialNumber)).toEqual(['EPC000101']);
    expect(reported).toEqual([]);
  });

  it('sets a damaged configuration file aside with its description, instead of failing or keeping it', async () => {
    const damaged = new Uint8Array([0xa1, 0x61, 0x61]); // a map cut short
    await store().put('EPC000101', damaged, 'sync-1');
    expect(await store().get('EPC000101')).toBeUndefined();
    expect(reported.map((f) => basename(f.from)).sort()).toEqual(['EPC000101.cbor', 'EPC000101.json']);
    expect(reported[0]!.reason).toMatch(/^the configuration file kept for EPC000101 cannot be used: /);
    expect(byOriginal(await quarantined(scratch.dir), 'EPC000101.cbor')?.equals(Buffer.from(damaged))).toBe(true);
    expect(await store().list()).toEqual([]);
  });

  it('a garbage description makes get() answer "none kept" instead of throwing', async () => {
    await store().put('EPC000101', new Uint8Array([1]), 'sync-1');
    await writeFile(join(scratch.dir, 'EPC000101.json'), '{"serialNumber":');
    await expect(store().get('EPC000101')).resolves.toBeUndefined();
    expect(reported.map((f) => basename(f.from))).toEqual(['EPC000101.json']);
  });
});

describe('kept signing key', () => {
  const store = () =>
    new SigningKeyStore({
      dir: scratch.dir,
      now: () => Date.parse('2026-02-03T04:05:06.789Z'),
      onQuarantine: (f) => reported.push(f),
    });
  const key = {
    keyId: 'k1',
    algorithm: 'ES256',
    publicKeyPem: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n',
  };
  const online: SigningKeySource = { signingKey: async () => key };
  const offline: SigningKeySource = {
    signingKey: async () => {
      throw new NetworkError('unreachable', { method: 'GET', path: '/v1/config-file-signing-key' });
    },
  };

  for (const [what, damage] of [
    ['garbage', (_good: Buffer) => Buffer.from([0x00, 0x01, 0xfe])],
    ['truncated', (good: Buffer) => good.subarray(0, good.length - 9)],
  ] as const) {
    it(`offline with a ${what} key file: answers "none kept", reports it, keeps its bytes; online writes a good one`, async () => {
      await store().get(online);
      const path = join(scratch.dir, 'config-file-signing-key.json');
      const bad = damage(await readFile(path));
      await writeFile(path, bad);

      expect(await store().get(offline)).toEqual({ key: undefined, origin: 'none' });
      expect(reported.map((f) => basename(f.from))).toEqual(['config-file-signing-key.json']);
      expect(byOriginal(await quarantined(scratch.dir), 'config-file-signing-key.json')?.equals(bad)).toBe(true);

      expect((await store().get(online)).key?.keyId).toBe('k1');
      expect((await store().get(offline)).origin).toBe('stored');
      expect(reported).toHaveLength(1);
    });
  }
});

describe('intent journal', () => {
  const journal = (pid: number) =>
    new IntentJournal({
      dir: scratch.dir,
      pid,
      hostname: 'bench-1',
      isAlive: () => false,
      now: () => Date.parse('2026-02-03T04:05:06.789Z'),
      onQuarantine: (f) => reported.push(f),
    });
  const intent = (jobId: string, serialNumber: string) => ({
    jobId,
    kind: 'firmware' as const,
    serviceUrl: 'http://service.test',
    orgId: 'org-1',
    serialNumber,
    firmwareVersion: '2.0.0',
    syncId: null,
    phase: 'uploading',
  });

  it('finds every good interrupted job among garbage and truncated intent files, which it sets aside intact', async () => {
    const crashed = journal(111);
    await crashed.record(intent('job-1', 'EPC000101'));
    await crashed.record(intent('job-2', 'EPC000102'));
    const good = await readFile(join(scratch.dir, 'job-1.json'));
    const damaged: Record<string, Buffer> = {
      'job-3.json': good.subarray(0, good.length >> 1),
      'job-4.json': Buffer.from([0xc0, 0xff, 0xee]),
    };
    for (const [name, bytes] of Object.entries(damaged)) await writeFile(join(scratch.dir, name), bytes);
    const newer = JSON.stringify({
      ...JSON.parse(good.toString('utf8')),
      format: 'provisioner-job-intent/2',
      jobId: 'job-5',
    });
    await writeFile(join(scratch.dir, 'job-5.json'), newer);

    const found = await journal(222).orphans();
    expect(found.map((i) => i.serialNumber).sort()).toEqual(['EPC000101', 'EPC000102']);
    expect(reported.map((f) => basename(f.from)).sort()).toEqual(['job-3.json', 'job-4.json']);
    const files = await quarantined(scratch.dir);
    for (const [name, bytes] of Object.entries(damaged)) expect(byOriginal(files, name)?.equals(bytes)).toBe(true);
    // A newer version's intent is not damaged: left for it.
    expect(await readFile(join(scratch.dir, 'job-5.json'), 'utf8')).toBe(newer);

    reported = [];
    expect(await journal(222).orphans()).toHaveLength(2);
    expect(reported).toEqual([]);
  });
});
