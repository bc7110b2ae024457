import { describe, expect, it } from 'vitest';
import {
  block2Of,
  block2Option,
  CODE,
  downloadBlock2,
  OPTION,
  uintOption,
  type CoapMessage,
} from '../../../main/devices/coap';
import { DeviceProtocolError, DeviceTimeoutError } from '../../../main/devices/errors';
import { createMemoryLinkPair } from '../../../main/devices/links/memory-link';
import { DEVICE_INFO_MAX_BYTES, identify } from '../../../main/devices/operations/identify';
import { DeviceSession } from '../../../main/devices/session';
import { ScriptedDevice, type Reply } from './helpers/scripted-device';

/** A device whose /info never ends: every block it sends says more follow (M = 1). */
function endlessInfo(options: { blockSize?: number; delayMs?: number; size2?: number } = {}) {
  return (request: CoapMessage): Reply => {
    const asked = block2Of(request);
    const size = asked?.size ?? options.blockSize ?? 64;
    const num = asked?.num ?? 0;
    const extra = options.size2 === undefined ? [] : [uintOption(OPTION.SIZE2, options.size2)];
    return {
      code: CODE.CONTENT,
      options: [block2Option({ num, more: true, size }), ...extra],
      payload: new Uint8Array(size).fill(0x61),
      delayMs: options.delayMs,
    };
  };
}

function setup(handler: (request: CoapMessage) => Reply | undefined) {
  const { host, device } = createMemoryLinkPair({ ackTimeoutMs: 20 });
  const scripted = new ScriptedDevice(device, handler);
  const session = new DeviceSession(host, { deviceName: 'EPC000101', random: () => 0 });
  return { session, scripted };
}

async function failure(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('finished without an error');
}

describe('Block2 downloads are bounded', () => {
  it('identify against a device that streams /info forever stops at the size limit with a clear error', async () => {
    const { session, scripted } = setup(endlessInfo({ blockSize: 64 }));
    const before = process.memoryUsage().arrayBuffers;
    const error = await failure(identify(session));
    expect(error).toBeInstanceOf(DeviceProtocolError);
    expect(error.message).toMatch(
      /EPC000101 answered info request block \d+ unexpectedly: the answer keeps going, more than the 4096 bytes taken/,
    );
    // Asked for no more blocks than the limit holds, plus the one that passed it.
    expect(scripted.requests.length).toBe(DEVICE_INFO_MAX_BYTES / 64 + 1);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
    expect(session.info).toBeUndefined();
  });

  it('refuses at the first block an answer whose Size2 announces more than the limit', async () => {
    const { session, scripted } = setup(endlessInfo({ size2: 2 ** 31 }));
    const error = await failure(identify(session));
    expect(error).toBeInstanceOf(DeviceProtocolError);
    expect(error.message).toMatch(/announces 2147483648 bytes \(Size2\), more than the 4096 bytes taken/);
    expect(scripted.requests).toHaveLength(1);
  });

  it('gives up when the whole download outlasts its deadline, even though every block is answered in time', async () => {
    // 16-byte blocks, each answered after 15 ms: within every retransmission timeout, forever.
    const { session, scripted } = setup(endlessInfo({ blockSize: 16, delayMs: 15 }));
    const error = await failure(identify(session, { deadlineMs: 300 }));
    expect(error).toBeInstanceOf(DeviceTimeoutError);
    expect(error.message).toMatch(
      /^EPC000101 did not finish info request block \d+ within 0\.3 s \(\d+ block requests\) over memory/,
    );
    // Under the size limit (4096 / 16 = 256 blocks) when the deadline struck.
    expect(scripted.requests.length).toBeLessThan(DEVICE_INFO_MAX_BYTES / 16);
  });

  it("keeps the caller's own cancellation as it is, not a timeout", async () => {
    const { session } = setup(endlessInfo({ blockSize: 16, delayMs: 15 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the technician cancelled')), 50);
    const error = await failure(
      downloadBlock2(session.engine, {
        path: 'info',
        step: 'info request',
        signal: controller.signal,
        maxBytes: 1 << 20,
      }),
    );
    expect(error.message).toBe('the technician cancelled');
  });
});
