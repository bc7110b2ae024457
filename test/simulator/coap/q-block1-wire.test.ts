import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor } from '../../../domain/files/cbor';
import {
  CODE,
  CONTENT_FORMAT_MISSING_BLOCKS,
  contentFormatOf,
  decodeMessage,
  decodeMissingBlocks,
  encodeMessage,
  OPTION,
  qBlock1Of,
  qBlock1Option,
  uriPathOptions,
  type CoapMessage,
  type CoapType,
} from '../../../protocol/coap';
import { configContent, scratchDir, signedConfigFile, uniqueSerial } from '../helpers/fixtures';
import { startUdpSession, type UdpSession } from '../helpers/udp-session';
import { waitFor } from '../helpers/wait';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let session: UdpSession;
const answers: CoapMessage[] = [];
/** One file for both tests: the configuration resource keeps one upload, and the second test completes the first's. */
let content: ReturnType<typeof configContent>;
let body: Uint8Array;

beforeAll(async () => {
  scratch = await scratchDir('q-block1-wire');
  session = await startUdpSession(scratch.dir, { serialNumber: uniqueSerial('EPC') });
  session.transport.onMessage((bytes) => answers.push(decodeMessage(bytes)));
  content = configContent(session.device.descriptor.serialNumber, 'EPC');
  body = signedConfigFile(content);
});

afterAll(async () => {
  await session?.close();
  await scratch?.cleanup();
});

/** Sends block `num` of `body` in 64-byte Q-Block1 payloads, as an RFC 9177 client does. */
function sendBlock(num: number, type: CoapType, messageId: number, tag: number): void {
  const size = 64;
  const last = Math.ceil(body.length / size) - 1;
  session.transport.send(
    encodeMessage({
      type,
      code: CODE.PUT,
      messageId,
      token: Uint8Array.of(tag, num),
      options: [
        ...uriPathOptions('config'),
        qBlock1Option({ num, more: num < last, size }),
        { number: OPTION.REQUEST_TAG, value: Uint8Array.of(tag) },
      ],
      payload: body.subarray(num * size, (num + 1) * size),
    }),
  );
}

describe('Q-Block1 on the wire: what the simulated device answers to NON payloads', () => {
  it('answers nothing to NON payloads in the middle of a set, and 2.31 to a CON once the set so far is in', async () => {
    sendBlock(0, 'NON', 300, 8);
    sendBlock(1, 'NON', 301, 8);
    sendBlock(2, 'CON', 302, 8);
    await waitFor(() => answers.length === 1);
    const [answer] = answers.splice(0);
    expect(answer).toMatchObject({ type: 'ACK', messageId: 302, code: CODE.CONTINUE });
    expect(qBlock1Of(answer!)).toMatchObject({ num: 2, more: true });
  });

  it('lists a lost block in a 4.08 when the last block arrives, and gives the final answer once it is repaired', async () => {
    const last = Math.ceil(body.length / 64) - 1;
    expect(last).toBeGreaterThan(2);
    // Block 1 is "lost": never sent.
    for (let num = 0; num <= last; num++) if (num !== 1) sendBlock(num, 'NON', 100 + num, 7);
    await waitFor(() => answers.length === 1);
    const [missing] = answers.splice(0);
    expect(missing).toMatchObject({ type: 'NON', code: CODE.REQUEST_ENTITY_INCOMPLETE });
    expect(contentFormatOf(missing!)).toBe(CONTENT_FORMAT_MISSING_BLOCKS);
    expect(decodeMissingBlocks(missing!.payload)).toEqual([1]);
    // RFC 9177 §4.4: the answer carries the token of the last payload received.
    expect([...missing!.token]).toEqual([7, last]);

    sendBlock(1, 'NON', 200, 7);
    await waitFor(() => answers.length === 1);
    const [final] = answers.splice(0);
    expect(final).toMatchObject({ type: 'NON', code: CODE.CHANGED });
    expect(qBlock1Of(final!)).toMatchObject({ num: 1, more: false });
    expect(decodeCbor(final!.payload)).toMatchObject({ syncId: content.syncId });
    expect(session.device.state().config?.syncId).toBe(content.syncId);
  });
});
