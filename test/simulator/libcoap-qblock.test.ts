import { execFile } from 'node:child_process';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import {
  CODE,
  decodeMessage,
  encodeBlock,
  encodeMessage,
  OPTION,
  uriPathOptions,
  type CoapMessage,
} from '../../protocol/coap';
import { startSimulatedDevice, type SimulatedDevice } from '../../simulator';
import { configContent, scratchDir, serviceKeys, signedConfigFile, uniqueSerial } from './helpers/fixtures';
import { testReleaseKey } from '../fixtures/release-key';

const run = promisify(execFile);
const COAP_CLIENT = '/usr/bin/coap-client-notls';
/**
 * COAP_BLOCK_USE_LIBCOAP (1) + 4, which is COAP_BLOCK_TRY_Q_BLOCK from libcoap 4.3.2 on. Debian's
 * 4.3.1 has no Q-Block code at all (its source has neither option 19 nor MAX_PAYLOADS), so there
 * the 4 does nothing and the client sends Block1.
 */
const TRY_Q_BLOCK = '5';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let device: SimulatedDevice;

/**
 * A UDP relay in front of the device that records the option numbers of every request, so the
 * test sees which block option libcoap chose (it falls back to Block1 when a server refuses Q-Block1).
 */
async function relay(
  target: number,
): Promise<{ port: number; requestOptions: number[][]; close: () => Promise<void> }> {
  const front = createSocket('udp4');
  const back = createSocket('udp4');
  const requestOptions: number[][] = [];
  let client: RemoteInfo | undefined;
  front.on('message', (bytes, remote) => {
    client = remote;
    requestOptions.push(decodeMessage(new Uint8Array(bytes)).options.map((o) => o.number));
    back.send(bytes, target, '127.0.0.1');
  });
  back.on('message', (bytes) => {
    if (client) front.send(bytes, client.port, client.address);
  });
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => back.bind(0, '127.0.0.1', resolve));
  return {
    port: front.address().port,
    requestOptions,
    close: async () => {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await new Promise<void>((resolve) => back.close(() => resolve()));
    },
  };
}

beforeAll(async () => {
  scratch = await scratchDir('libcoap-qblock');
  device = await startSimulatedDevice({
    deviceType: 'EPC',
    serialNumber: uniqueSerial('EPC'),
    link: { udp: { host: '127.0.0.1', port: 0 } },
    stateDir: join(scratch.dir, 'device'),
    publicKeyPem: serviceKeys.publicKeyPem,
    releaseKeysPem: [testReleaseKey.publicKeyPem],
    rebootMs: 100,
    applyMs: 50,
  });
});

afterAll(async () => {
  await device?.stop();
  await scratch?.cleanup();
});

describe('Q-Block1 (RFC 9177) into the simulated device', () => {
  it('takes a configuration file PUT with Q-Block1 blocks', async () => {
    const content = configContent(device.descriptor.serialNumber, 'EPC');
    const file = join(scratch.dir, 'config.cbor');
    const answer = join(scratch.dir, 'config-answer.cbor');
    await writeFile(file, signedConfigFile(content));
    const via = await relay(device.descriptor.port!);
    try {
      await run(
        COAP_CLIENT,
        [
          '-B',
          '30',
          '-L',
          TRY_Q_BLOCK,
          '-m',
          'put',
          '-b',
          '256',
          '-f',
          file,
          '-o',
          answer,
          `coap://127.0.0.1:${via.port}/config`,
        ],
        { timeout: 60_000 },
      );
    } finally {
      await via.close();
    }
    // libcoap 4.3.1 sends this PUT in Block1 (option 27) blocks whatever -L says: what is checked
    // here is that a device which takes Q-Block1 still takes Block1 from a client that has none.
    // Our own Q-Block1 host against libcoap is in test/main/devices/libcoap-interop.test.ts.
    expect(via.requestOptions.filter((numbers) => numbers.includes(OPTION.BLOCK1)).length).toBeGreaterThan(1);
    expect(via.requestOptions.filter((numbers) => numbers.includes(OPTION.Q_BLOCK1))).toHaveLength(0);
    expect(decodeCbor(await readFile(answer))).toEqual({ syncId: content.syncId });
    expect(device.state().config?.syncId).toBe(content.syncId);
  });

  it('refuses Q-Block1 and Block1 in one request', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.connect(device.descriptor.port!, '127.0.0.1', resolve));
    try {
      const block = encodeBlock({ num: 0, more: true, size: 16 });
      const answer = new Promise<CoapMessage>((resolve) =>
        socket.once('message', (bytes) => resolve(decodeMessage(new Uint8Array(bytes)))),
      );
      const request = encodeMessage({
        type: 'CON',
        code: CODE.PUT,
        messageId: 999,
        token: new Uint8Array([9]),
        options: [
          ...uriPathOptions('config'),
          { number: OPTION.Q_BLOCK1, value: block },
          { number: OPTION.BLOCK1, value: block },
        ],
        payload: new Uint8Array(16),
      });
      // Sent again until answered, as a CoAP client retransmits a CON (RFC 7252 §4.2): the device
      // may still be rebooting after it applied the file of the test before (its link is down meanwhile).
      let answered = false;
      void answer.then(() => (answered = true));
      for (let tries = 0; tries < 40 && !answered; tries += 1) {
        socket.send(request);
        await Promise.race([answer, new Promise((resolve) => setTimeout(resolve, 500))]);
      }
      expect(answered, 'the device answered none of 40 sends').toBe(true);
      expect((await answer).code).toBe(CODE.BAD_REQUEST);
    } finally {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
  });
});
