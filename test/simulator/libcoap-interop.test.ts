import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../domain/files/cbor';
import type { SimulatedDevice } from '../../simulator';
import { announcement, configContent, scratchDir, signedConfigFile, testImage, uniqueSerial } from './helpers/fixtures';
import { waitFor } from './helpers/wait';
import { startDevice } from '../fixtures/simulated-device';

const run = promisify(execFile);
const COAP_CLIENT = '/usr/bin/coap-client-notls';

/** libcoap's client: a CoAP implementation we did not write. -B bounds how long it waits. */
async function coapClient(args: string[]): Promise<string> {
  const { stdout } = await run(COAP_CLIENT, ['-B', '30', ...args], { timeout: 60_000 });
  return stdout;
}

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let device: SimulatedDevice;
let base: string;

beforeAll(async () => {
  scratch = await scratchDir('libcoap');
  device = await startDevice(scratch.dir, {
    serialNumber: uniqueSerial('EPC'),
    link: { udp: { host: '127.0.0.1', port: 0 } },
    stateDir: join(scratch.dir, 'device'),
    rebootMs: 100,
  });
  base = `coap://127.0.0.1:${device.descriptor.port}`;
});

afterAll(async () => {
  await device?.stop();
  await scratch?.cleanup();
});

describe('libcoap coap-client-notls against the simulator over UDP', () => {
  it('reads /.well-known/core', async () => {
    const links = await coapClient([`${base}/.well-known/core`]);
    for (const path of ['info', 'fw', 'fw/data', 'fw/apply', 'config', 'reboot']) expect(links).toContain(`</${path}>`);
  });

  it('reads /info as CBOR', async () => {
    const out = join(scratch.dir, 'info.cbor');
    await coapClient(['-o', out, `${base}/info`]);
    expect(decodeCbor(await readFile(out))).toMatchObject({
      protocol: 1,
      serialNumber: device.descriptor.serialNumber,
      deviceType: 'EPC',
      maxBlockSize: 1024,
    });
  });

  it('reads /info block-wise when asked for 32-byte blocks', async () => {
    const out = join(scratch.dir, 'info-blocks.cbor');
    await coapClient(['-b', '32', '-o', out, `${base}/info`]);
    expect(decodeCbor(await readFile(out))).toMatchObject({ serialNumber: device.descriptor.serialNumber });
  });

  it('takes a block-wise firmware upload after a CBOR announce, and applies it', async () => {
    const image = testImage('EPC', '2.3.0', 70_000);
    const announceFile = join(scratch.dir, 'announce.cbor');
    const imageFile = join(scratch.dir, 'image.bin');
    const answer = join(scratch.dir, 'answer.cbor');
    await writeFile(announceFile, encodeCbor(announcement(image)));
    await writeFile(imageFile, image.image);

    await coapClient(['-m', 'post', '-t', '60', '-f', announceFile, '-o', answer, `${base}/fw`]);
    expect(decodeCbor(await readFile(answer))).toEqual({ offset: 0, blockSize: 1024 });

    await coapClient(['-m', 'put', '-b', '1024', '-f', imageFile, '-o', answer, `${base}/fw/data`]);
    const complete = decodeCbor(await readFile(answer)) as { received: number; sha256: Uint8Array };
    expect(complete.received).toBe(image.image.length);
    expect(Buffer.from(complete.sha256)).toEqual(Buffer.from(image.sha256));
    expect(device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.image.length });

    const bootId = device.state().bootId;
    await coapClient(['-m', 'post', '-o', answer, `${base}/fw/apply`]);
    expect(decodeCbor(await readFile(answer))).toEqual({ version: '2.3.0' });
    // Rebooted into the new image: a new bootId once it answers again.
    await waitFor(() => device.state().bootId !== bootId);
    expect(device.state().firmwareVersion).toBe('2.3.0');
  });

  it('takes a configuration file as a Block1 PUT to /config', async () => {
    const content = configContent(device.descriptor.serialNumber, 'EPC');
    const file = join(scratch.dir, 'config.cbor');
    const answer = join(scratch.dir, 'config-answer.cbor');
    await writeFile(file, signedConfigFile(content));
    await coapClient(['-m', 'put', '-b', '256', '-f', file, '-o', answer, `${base}/config`]);
    expect(decodeCbor(await readFile(answer))).toEqual({ syncId: content.syncId });
    expect(device.state().config?.syncId).toBe(content.syncId);
  });
});
