import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../../domain/files/cbor';
import {
  block1Of,
  block1Option,
  block2Of,
  block2Option,
  CoapEngine,
  CODE,
  contentFormatOption,
  downloadBlock2,
  getUintOption,
  observe,
  observeOf,
  observeOption,
  OPTION,
  uploadBlock1,
  uriPathOf,
  type CoapMessage,
} from '../../../main/devices/coap';
import { DeviceDisconnectedError, DeviceError, DeviceTimeoutError } from '../../../main/devices/errors';
import { createMemoryLinkPair, type MemoryLinkOptions } from '../../../main/devices/links/memory-link';
import { ScriptedDevice, type Reply } from './helpers/scripted-device';

function setup(
  handler: (request: CoapMessage, device: ScriptedDevice) => Reply | undefined,
  linkOptions: MemoryLinkOptions = {},
) {
  const { host, device } = createMemoryLinkPair({ ackTimeoutMs: 10, ...linkOptions });
  const scripted = new ScriptedDevice(device, handler);
  const engine = new CoapEngine(host, { deviceName: 'EPC000101', random: () => 0 });
  return { engine, scripted, host, device };
}

const info = { serialNumber: 'EPC000101', maxBlockSize: 1024 };
const infoReply = (): Reply => ({ code: CODE.CONTENT, options: [contentFormatOption(60)], payload: encodeCbor(info) });

function pattern(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
}

/** A Block1 receiver like the protocol's: accepts blocks in any order, completes when every byte is in. */
function block1Receiver(
  options: { maxBlockSize?: number; onComplete?: (data: Uint8Array) => Reply; outstanding?: () => number } = {},
) {
  const chunks = new Map<number, Uint8Array>();
  let total: number | undefined;
  const state = { maxConcurrent: 0, data: new Uint8Array(0), completions: 0 };
  const handler = (request: CoapMessage): Reply | undefined => {
    const block = block1Of(request)!;
    if (options.maxBlockSize && block.size > options.maxBlockSize) {
      return {
        code: CODE.REQUEST_ENTITY_TOO_LARGE,
        options: [block1Option({ num: 0, more: false, size: options.maxBlockSize })],
      };
    }
    const offset = block.num * block.size;
    chunks.set(offset, request.payload);
    if (!block.more) total = offset + request.payload.length;
    let contiguous = 0;
    while (chunks.has(contiguous)) contiguous += chunks.get(contiguous)!.length;
    const complete = total !== undefined && contiguous >= total;
    // The host's unanswered requests when this one arrives: what its window allows, whatever the timers do.
    state.maxConcurrent = Math.max(state.maxConcurrent, options.outstanding?.() ?? 0);
    if (complete) {
      state.completions++;
      state.data = Buffer.concat([...chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c));
      return {
        ...(options.onComplete?.(state.data) ?? { code: CODE.CHANGED }),
        options: [block1Option({ ...block, more: false })],
        delayMs: 3,
      };
    }
    return { code: CODE.CONTINUE, options: [block1Option({ ...block, more: true })], delayMs: 3 };
  };
  return { handler, state };
}

describe('CoAP engine: messaging', () => {
  it('sends a confirmable GET and returns the piggybacked response', async () => {
    const { engine, scripted } = setup(() => infoReply());
    const response = await engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    expect(response.code).toBe(CODE.CONTENT);
    expect(decodeCbor(response.message.payload)).toEqual(info);
    expect(scripted.requests).toHaveLength(1);
    expect(uriPathOf(scripted.requests[0]!)).toBe('info');
    expect(scripted.requests[0]!.type).toBe('CON');
  });

  it('retransmits with the same message id when requests are lost', async () => {
    let dropped = 0;
    const { engine, scripted } = setup(() => infoReply(), {
      filter: (direction) => !(direction === 'toDevice' && dropped++ < 2),
    });
    await engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    expect(engine.stats.retransmissions).toBe(2);
    expect(engine.stats.sent).toBe(3);
    expect(scripted.requests).toHaveLength(1);
  });

  it('retransmits when the response is lost and the device answers the duplicate from its cache', async () => {
    let dropped = 0;
    let handled = 0;
    const { engine } = setup(
      () => {
        handled++;
        return infoReply();
      },
      { filter: (direction) => !(direction === 'toHost' && dropped++ < 1) },
    );
    const response = await engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    expect(response.code).toBe(CODE.CONTENT);
    expect(handled).toBe(1);
    expect(engine.stats.retransmissions).toBe(1);
  });

  it('ignores a duplicate ACK', async () => {
    const { engine } = setup(() => ({ ...infoReply(), duplicate: true }));
    await engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    const second = await engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    expect(second.code).toBe(CODE.CONTENT);
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.stats.unmatched).toBe(2);
  });

  it('times out after MAX_RETRANSMIT retransmissions with an error naming the device, the step and the link', async () => {
    const { engine, scripted } = setup(() => undefined);
    const error = await engine
      .request({ method: CODE.PUT, path: 'fw/data', step: 'firmware block 37 (offset 37888)' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceTimeoutError);
    expect((error as Error).message).toBe(
      'EPC000101 did not acknowledge firmware block 37 (offset 37888) after 5 tries over memory:host',
    );
    // A silent device sees the same message five times: one transmission and MAX_RETRANSMIT (4) retransmissions.
    expect(scripted.requests).toHaveLength(5);
    expect(new Set(scripted.requests.map((r) => r.messageId)).size).toBe(1);
  });

  it('waits for a separate response after an empty ACK and acknowledges it', async () => {
    const { engine, scripted } = setup(() => ({
      code: CODE.CHANGED,
      separate: true,
      payload: encodeCbor({ version: '2.0.0' }),
    }));
    const response = await engine.request({ method: CODE.POST, path: 'fw/apply', step: 'apply' });
    expect(decodeCbor(response.message.payload)).toEqual({ version: '2.0.0' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(scripted.acks.some((m) => m.type === 'ACK' && m.code === CODE.EMPTY)).toBe(true);
  });

  it('turns a CBOR error payload into a DeviceError with its code', async () => {
    const { engine } = setup(() => ({
      code: '4.09',
      payload: encodeCbor({ code: 'FW_INCOMPLETE', message: 'not all bytes', received: 1024 }),
    }));
    const error = await engine
      .request({ method: CODE.POST, path: 'fw/apply', step: 'firmware apply' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceError);
    expect(error).toMatchObject({ code: 'FW_INCOMPLETE', coapCode: '4.09', details: { received: 1024 } });
    expect((error as Error).message).toContain('EPC000101 refused firmware apply: FW_INCOMPLETE (4.09)');
  });

  it('cancels a request with an AbortSignal and stops retransmitting', async () => {
    const { engine } = setup(() => undefined);
    const controller = new AbortController();
    const pending = engine.request({ method: CODE.GET, path: 'info', step: 'info request', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    const sent = engine.stats.sent;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(engine.stats.sent).toBe(sent);
    expect(engine.outstanding).toBe(0);
  });

  it('fails outstanding requests when the link drops', async () => {
    const { engine, host } = setup(() => undefined);
    const pending = engine.request({ method: CODE.GET, path: 'info', step: 'info request' });
    host.drop();
    await expect(pending).rejects.toBeInstanceOf(DeviceDisconnectedError);
  });

  it('answers an unknown confirmable response with RST', async () => {
    const { scripted } = setup(() => undefined);
    scripted.send({
      type: 'CON',
      code: CODE.CONTENT,
      messageId: 77,
      token: Uint8Array.from([9]),
      options: [],
      payload: new Uint8Array(0),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(scripted.acks).toContainEqual(expect.objectContaining({ type: 'RST', messageId: 77 }));
  });
});

describe('CoAP engine: Block1 upload', () => {
  it('uploads with several blocks in flight, up to the window, byte for byte', async () => {
    let outstanding = () => 0;
    const receiver = block1Receiver({ outstanding: () => outstanding() });
    const { engine } = setup(receiver.handler);
    outstanding = () => engine.outstanding;
    const data = pattern(20 * 1024 + 100);
    const progress: number[] = [];
    const result = await uploadBlock1(engine, {
      path: 'fw/data',
      data,
      blockSize: 1024,
      window: 4,
      what: 'firmware',
      onProgress: (n) => progress.push(n),
    });
    expect(result.response.code).toBe(CODE.CHANGED);
    expect(Buffer.compare(receiver.state.data, data)).toBe(0);
    expect(receiver.state.maxConcurrent).toBe(4);
    expect(progress.at(-1)).toBe(data.length);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('recovers lost blocks and lost acknowledgements', async () => {
    let n = 0;
    const receiver = block1Receiver();
    const { engine } = setup(receiver.handler, { filter: () => n++ % 7 !== 3 });
    const data = pattern(16 * 1024);
    await uploadBlock1(engine, { path: 'fw/data', data, blockSize: 512, window: 8, what: 'firmware' });
    expect(Buffer.compare(receiver.state.data, data)).toBe(0);
    expect(engine.stats.retransmissions).toBeGreaterThan(0);
  });

  it('resumes from a start offset', async () => {
    const receiver = block1Receiver();
    const { engine, scripted } = setup(receiver.handler);
    const data = pattern(8 * 1024);
    await expect(
      uploadBlock1(engine, { path: 'fw/data', data, blockSize: 1024, window: 2, what: 'firmware', startOffset: 4096 }),
    ).rejects.toThrow(/never reported the upload complete/);
    expect(block1Of(scripted.requests[0]!)!.num).toBe(4);
  });

  it('switches to the smaller block size a 4.13 asks for', async () => {
    const receiver = block1Receiver({ maxBlockSize: 256 });
    const { engine } = setup(receiver.handler);
    const data = pattern(5000);
    const result = await uploadBlock1(engine, {
      path: 'config',
      data,
      blockSize: 1024,
      window: 3,
      what: 'configuration',
      size1: true,
    });
    expect(result.blockSize).toBe(256);
    expect(Buffer.compare(receiver.state.data, data)).toBe(0);
  });

  it('continues with the smaller block size a 2.31 echoes (RFC 7959 §2.3)', async () => {
    const chunks = new Map<number, Uint8Array>();
    const data = pattern(4096);
    const { engine, scripted } = setup((request) => {
      const block = block1Of(request)!;
      chunks.set(block.num * block.size, request.payload);
      const done = [...chunks.values()].reduce((n, c) => n + c.length, 0) === data.length;
      return {
        code: done ? CODE.CHANGED : CODE.CONTINUE,
        options: [block1Option({ num: block.num, more: !done, size: Math.min(block.size, 256) })],
      };
    });
    const result = await uploadBlock1(engine, { path: 'fw/data', data, blockSize: 1024, window: 1, what: 'firmware' });
    expect(result.blockSize).toBe(256);
    expect(scripted.requests.map((r) => block1Of(r)!.size)).toEqual([1024, ...Array(12).fill(256)]);
    expect(
      Buffer.compare(Buffer.concat([...chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c)), data),
    ).toBe(0);
  });

  it('sends Size1 with block 0 only', async () => {
    const receiver = block1Receiver();
    const { engine, scripted } = setup(receiver.handler);
    await uploadBlock1(engine, {
      path: 'config',
      data: pattern(3000),
      blockSize: 1024,
      window: 1,
      what: 'configuration',
      size1: true,
    });
    // By block: a block retransmitted after the 10 ms ACK timeout (a loaded machine) is sent again as it was.
    const sizeByBlock = new Map(scripted.requests.map((r) => [block1Of(r)!.num, getUintOption(r, OPTION.SIZE1)]));
    expect([...sizeByBlock]).toEqual([
      [0, 3000],
      [1, undefined],
      [2, undefined],
    ]);
  });

  it('stops at the first error and reports the block', async () => {
    const { engine } = setup((request) => {
      const block = block1Of(request)!;
      if (block.num === 3) return { code: '4.00', payload: encodeCbor({ code: 'FW_BAD_HEADER', message: 'bad' }) };
      return { code: CODE.CONTINUE, options: [block1Option(block)] };
    });
    const error = await uploadBlock1(engine, {
      path: 'fw/data',
      data: pattern(10 * 64),
      blockSize: 64,
      window: 1,
      what: 'firmware',
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FW_BAD_HEADER' });
    expect((error as Error).message).toContain('firmware block 3 (offset 192)');
  });

  it('names the block that timed out', async () => {
    const { engine } = setup((request) => {
      const block = block1Of(request)!;
      if (block.num === 37) return undefined;
      return { code: CODE.CONTINUE, options: [block1Option(block)] };
    });
    const error = await uploadBlock1(engine, {
      path: 'fw/data',
      data: pattern(40 * 1024),
      blockSize: 1024,
      window: 4,
      what: 'firmware',
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'EPC000101 did not acknowledge firmware block 37 (offset 37888) after 5 tries over memory:host',
    );
  });

  it('is cancelled by its AbortSignal', async () => {
    const receiver = block1Receiver();
    const { engine } = setup(receiver.handler);
    const controller = new AbortController();
    const upload = uploadBlock1(engine, {
      path: 'fw/data',
      data: pattern(64 * 1024),
      blockSize: 1024,
      window: 2,
      what: 'firmware',
      signal: controller.signal,
      onProgress: (n) => n >= 8 * 1024 && controller.abort(),
    });
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.outstanding).toBe(0);
  });
});

describe('CoAP engine: Block2 download', () => {
  it('downloads block after block and follows a smaller size from the device', async () => {
    const body = pattern(3000);
    const { engine, scripted } = setup((request) => {
      const asked = block2Of(request);
      const size = Math.min(asked?.size ?? 1024, 512);
      const num = asked ? (asked.num * asked.size) / size : 0;
      const chunk = body.subarray(num * size, num * size + size);
      return {
        code: CODE.CONTENT,
        options: [block2Option({ num, more: (num + 1) * size < body.length, size })],
        payload: chunk,
      };
    });
    const result = await downloadBlock2(engine, { path: 'big', blockSize: 1024, step: 'download' });
    expect(Buffer.compare(result.payload, body)).toBe(0);
    expect(scripted.requests.map((r) => block2Of(r)!.num)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('returns a response without Block2 as it is', async () => {
    const { engine } = setup(() => infoReply());
    const result = await downloadBlock2(engine, { path: 'info', step: 'info request' });
    expect(decodeCbor(result.payload)).toEqual(info);
  });
});

describe('CoAP engine: Observe', () => {
  it('delivers notifications in order, drops stale ones and deregisters on cancel', async () => {
    let registration: CoapMessage | undefined;
    const { engine, scripted } = setup((request) => {
      if (observeOf(request) === 0) {
        registration = request;
        return { code: CODE.CONTENT, options: [observeOption(5)], payload: encodeCbor({ state: 'idle' }) };
      }
      return { code: CODE.CONTENT, payload: encodeCbor({ state: 'receiving' }) };
    });
    const observation = await observe(engine, { path: 'fw', step: 'firmware status' });
    const notify = (sequence: number, state: string) =>
      scripted.send({
        type: 'NON',
        code: CODE.CONTENT,
        messageId: scripted.allocateMessageId(),
        token: registration!.token,
        options: [observeOption(sequence)],
        payload: encodeCbor({ state }),
      });
    notify(6, 'receiving');
    notify(4, 'stale');
    notify(7, 'received');
    const states: string[] = [];
    for await (const response of observation) {
      states.push((decodeCbor(response.message.payload) as { state: string }).state);
      if (states.length === 3) break;
    }
    expect(states).toEqual(['idle', 'receiving', 'received']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const deregistration = scripted.requests.at(-1)!;
    expect(observeOf(deregistration)).toBe(1);
    expect(Buffer.compare(deregistration.token, registration!.token)).toBe(0);
  });

  it('ends the iteration with DeviceDisconnectedError when the link drops', async () => {
    const { engine, host } = setup(() => ({
      code: CODE.CONTENT,
      options: [observeOption(1)],
      payload: encodeCbor({ state: 'idle' }),
    }));
    const observation = await observe(engine, { path: 'fw', step: 'firmware status' });
    const iterator = observation[Symbol.asyncIterator]();
    await iterator.next();
    host.drop();
    await expect(iterator.next()).rejects.toBeInstanceOf(DeviceDisconnectedError);
  });
});
