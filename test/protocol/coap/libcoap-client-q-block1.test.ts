import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  block1Of,
  CODE,
  decodeBlock,
  decodeMessage,
  encodeMessage,
  OPTION,
  uriPathOf,
  type CoapMessage,
} from '../../../protocol/coap';

/**
 * docs/device-protocol.md 2.2 says Debian's libcoap 4.3.1 sends no Q-Block1, although its client's
 * help lists `-L` flags 4 (COAP_BLOCK_TRY_Q_BLOCK in later releases) and 8. This test checks the
 * claim on the wire: a loopback UDP endpoint that answers every block with 2.31 (and the last with
 * 2.04), so the client sends the whole body, and keeps the options of every request it received.
 */
const run = promisify(execFile);
const COAP_CLIENT = '/usr/bin/coap-client-notls';

interface Received {
  type: CoapMessage['type'];
  optionNumbers: number[];
  block1: { num: number; more: boolean; size: number } | undefined;
  payloadLength: number;
  path: string;
}

let scratch: string;
let file: string;
const body = new Uint8Array(randomBytes(5000));

async function endpoint(): Promise<{ socket: Socket; port: number; received: Received[] }> {
  const socket = createSocket('udp4');
  const received: Received[] = [];
  socket.on('message', (bytes, remote) => {
    const message = decodeMessage(new Uint8Array(bytes));
    if (message.type === 'ACK' || message.type === 'RST') return;
    const blockOption = message.options.find((o) => o.number === OPTION.BLOCK1 || o.number === OPTION.Q_BLOCK1);
    const block = blockOption === undefined ? undefined : decodeBlock(blockOption.value);
    received.push({
      type: message.type,
      optionNumbers: message.options.map((o) => o.number),
      block1: block1Of(message),
      payloadLength: message.payload.length,
      path: uriPathOf(message),
    });
    const confirmable = message.type === 'CON';
    const answer: CoapMessage = {
      type: confirmable ? 'ACK' : 'NON',
      code: block?.more === true ? CODE.CONTINUE : CODE.CHANGED,
      // A NON answer takes a message id of its own.
      messageId: confirmable ? message.messageId : (message.messageId + 0x8000) % 0x10000,
      token: message.token,
      options: blockOption === undefined ? [] : [blockOption],
      payload: new Uint8Array(0),
    };
    socket.send(encodeMessage(answer), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, received };
}

async function upload(flags: string[]): Promise<Received[]> {
  const { socket, port, received } = await endpoint();
  try {
    await run(COAP_CLIENT, ['-B', '30', ...flags, '-m', 'put', '-f', file, `coap://127.0.0.1:${port}/fw`], {
      timeout: 60_000,
    });
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
  return received;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'libcoap-client-q-block1-'));
  file = join(scratch, 'fw.bin');
  await writeFile(file, body);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('coap-client-notls 4.3.1 on the wire', () => {
  it('is the 4.3.1 that the docs speak of', async () => {
    const { stdout, stderr } = await run(COAP_CLIENT, ['-h']).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(`${stdout}${stderr}`).toMatch(/coap-client-notls v4\.3\.1\b/);
  });

  // `-L 5` is COAP_BLOCK_USE_LIBCOAP + 4 (COAP_BLOCK_TRY_Q_BLOCK from 4.3.2 on), 13 adds 8; `-N` sends
  // NON, the type Q-Block is meant for. `-b 6` is what 4.3.1 takes as SZX 6: 1024-byte blocks.
  for (const flags of [
    ['-L', '5', '-b', '6'],
    ['-L', '13', '-b', '6'],
    ['-L', '5', '-b', '6', '-N'],
  ]) {
    it(`sends the body in Block1 (option 27), never Q-Block1 (option 19), with ${flags.join(' ')}`, async () => {
      const received = await upload(flags);
      expect(received.length).toBeGreaterThanOrEqual(5);
      expect(received.filter((r) => r.optionNumbers.includes(OPTION.Q_BLOCK1))).toEqual([]);
      expect(received.every((r) => r.path === 'fw' && r.optionNumbers.includes(OPTION.BLOCK1))).toBe(true);
      expect(received.every((r) => r.type === (flags.includes('-N') ? 'NON' : 'CON'))).toBe(true);
      // The whole body went, block by block, in 1024-byte blocks.
      const blocks = new Map(received.map((r) => [r.block1!.num, r]));
      expect([...blocks.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
      expect(blocks.get(0)!.block1!.size).toBe(1024);
      expect([...blocks.values()].reduce((sum, r) => sum + r.payloadLength, 0)).toBe(body.length);
      expect(blocks.get(4)!.block1!.more).toBe(false);
    });
  }
});
