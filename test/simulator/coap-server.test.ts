import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import {
  block2Option,
  CODE,
  decodeMessage,
  encodeMessage,
  observeOption,
  uriPathOptions,
  type CoapMessage,
} from '../../main/devices/coap';
import { CoapServer } from '../../simulator/coap/server';
import type { ReceivedRequest, ResourceResponse } from '../../simulator/coap/types';
import { waitFor } from './helpers/wait';

function harness(handle: (request: ReceivedRequest) => Promise<ResourceResponse | undefined>) {
  const sent: CoapMessage[] = [];
  const server = new CoapServer({
    send: (bytes) => sent.push(decodeMessage(bytes)),
    handle,
    blockSize: 64,
    dedupCapacity: 32,
  });
  const request = (messageId: number, path: string, extra: Partial<CoapMessage> = {}) =>
    server.receive(
      encodeMessage({
        type: 'CON',
        code: CODE.GET,
        messageId,
        token: Uint8Array.of(messageId & 0xff),
        options: uriPathOptions(path),
        payload: new Uint8Array(0),
        ...extra,
      }),
      'peer',
    );
  return { server, sent, request };
}

describe('CoapServer', () => {
  it('answers a duplicate CON from its cache without handling it again', async () => {
    let handled = 0;
    const { sent, request } = harness(async () => {
      handled++;
      return { code: CODE.CONTENT, payload: Uint8Array.of(handled) };
    });
    request(7, 'x');
    await waitFor(() => sent.length === 1);
    request(7, 'x');
    await waitFor(() => sent.length === 2);
    expect(handled).toBe(1);
    expect(sent[1]).toEqual(sent[0]);
    expect(sent[0]).toMatchObject({ type: 'ACK', messageId: 7, code: CODE.CONTENT });
  });

  it('handles the retransmission of a request it swallowed (lost with a pulled cable)', async () => {
    let calls = 0;
    const { sent, request } = harness(async () => (++calls === 1 ? undefined : { code: CODE.CHANGED }));
    request(9, 'x');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(0);
    request(9, 'x');
    await waitFor(() => sent.length === 1);
    expect(calls).toBe(2);
  });

  it('refuses unknown critical options with 4.02 and the reserved SZX 7 with 4.00', async () => {
    const { sent, request } = harness(async () => ({ code: CODE.CONTENT }));
    request(1, 'x', { options: [...uriPathOptions('x'), { number: 9, value: Uint8Array.of(1) }] });
    request(2, 'x', { options: [...uriPathOptions('x'), { number: 23, value: Uint8Array.of(0x0f) }] });
    await waitFor(() => sent.length === 2);
    expect(sent.find((m) => m.messageId === 1)?.code).toBe(CODE.BAD_OPTION);
    expect(sent.find((m) => m.messageId === 2)?.code).toBe(CODE.BAD_REQUEST);
  });

  it('sends a large representation in Block2 blocks with Size2 and an ETag', async () => {
    const body = Uint8Array.from({ length: 150 }, (_, i) => i);
    const { sent, request } = harness(async () => ({ code: CODE.CONTENT, payload: body }));
    request(1, 'big');
    request(2, 'big', { options: [...uriPathOptions('big'), block2Option({ num: 2, more: false, size: 64 })] });
    await waitFor(() => sent.length === 2);
    expect(sent[0]!.payload).toHaveLength(64);
    expect(Buffer.from(sent[1]!.payload)).toEqual(Buffer.from(body.subarray(128)));
    expect(sent[0]!.options.map((o) => o.number)).toEqual(expect.arrayContaining([4, 23, 28]));
  });

  it('registers observers, notifies them, and forgets one that answers with RST', async () => {
    const { server, sent, request } = harness(async () => ({
      code: CODE.CONTENT,
      payload: Uint8Array.of(1),
      observable: true,
    }));
    request(3, 'fw', { options: [observeOption(0), ...uriPathOptions('fw')] });
    await waitFor(() => sent.length === 1);
    server.notify('fw', { code: CODE.CONTENT, payload: Uint8Array.of(2) });
    expect(sent[1]!.type).toBe('NON');
    expect(Buffer.from(sent[1]!.token)).toEqual(Buffer.from([3]));
    server.receive(
      encodeMessage({
        type: 'RST',
        code: '0.00',
        messageId: sent[1]!.messageId,
        token: new Uint8Array(0),
        options: [],
        payload: new Uint8Array(0),
      }),
      'peer',
    );
    server.notify('fw', { code: CODE.CONTENT, payload: Uint8Array.of(3) });
    expect(sent).toHaveLength(2);
  });

  it('answers a failing handler with 5.00 INTERNAL_ERROR', async () => {
    const { sent, request } = harness(async () => {
      throw new Error('flash on fire');
    });
    request(4, 'x');
    await waitFor(() => sent.length === 1);
    expect(sent[0]!.code).toBe(CODE.INTERNAL_SERVER_ERROR);
    expect(decodeCbor(sent[0]!.payload)).toMatchObject({ code: 'INTERNAL_ERROR' });
  });
});
