import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedVendorImage } from '../../../domain/vendor/simulated-image';
import { encodeEpcFirmwareBody } from '../../../protocol/vendor';
import { scratchDir, uniqueSerial } from '../../fixtures/scratch';
import { serviceKeys } from '../../fixtures/simulated-device';
import { epcEthernetScm2 } from '../../domain/vendor/samples';
import { runSimulatorCli, type CliRun } from '../helpers/cli-process';
import { secureConfigOf } from './helpers';

const run = promisify(execFile);

/** libcoap's client: a CoAP implementation we did not write. -B bounds how long it waits. */
async function coapClient(args: string[]): Promise<string> {
  const { stdout } = await run('/usr/bin/coap-client-notls', ['-B', '30', ...args], { timeout: 60_000 });
  return stdout;
}

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let cli: CliRun;
let base: string;
const serial = uniqueSerial('EPC');

beforeAll(async () => {
  scratch = await scratchDir('vendor-libcoap');
  const key = join(scratch.dir, 'root.pem');
  await writeFile(key, serviceKeys.publicKeyPem);
  // The simulator as a person starts it: its command line, the vendor's protocol, a device whose
  // largest block is 256 (so libcoap must follow a smaller SZX), and one setting run off its file.
  cli = runSimulatorCli(
    [
      '--protocol',
      'vendor',
      '--type',
      'EPC',
      '--serial',
      serial,
      '--link',
      'udp:127.0.0.1:0',
      '--public-key',
      key,
      '--state-dir',
      join(scratch.dir, 'state'),
      '--max-block-size',
      '256',
      '--reboot-ms',
      '50',
      '--apply-ms',
      '40',
      '--fault-param-drift',
      'cfg/sf/smcu/global/timeoutMs=1024',
    ],
    1,
  );
  const [line] = await cli.lines;
  expect(line).toMatchObject({
    serialNumber: serial,
    deviceType: 'EPC',
    protocol: 'vendor',
    model: 'EPC',
    link: 'udp',
  });
  base = `coap://127.0.0.1:${line!['port'] as number}`;
});

afterAll(async () => {
  cli?.child.kill('SIGTERM');
  await cli?.exit;
  await scratch?.cleanup();
});

describe('libcoap coap-client-notls against the simulated vendor EPC started from the command line', () => {
  it('reads identity', async () => {
    expect((await coapClient([`${base}/cfg/setup/serialNumber`])).trim()).toBe(JSON.stringify(serial));
    expect((await coapClient([`${base}/info/fw/version`])).trim()).toBe('"1.0.0"');
  });

  it('sets a value by POST to the parent and is refused a value out of range', async () => {
    const ok = join(scratch.dir, 'ok.json');
    await writeFile(ok, JSON.stringify({ rfChannel: 12 }));
    await coapClient(['-m', 'post', '-t', '50', '-f', ok, `${base}/cfg/radio/ism0`]);
    expect((await coapClient([`${base}/cfg/radio/ism0/rfChannel`])).trim()).toBe('12');
    const bad = join(scratch.dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ rfChannel: 40 }));
    const answer = await run('/usr/bin/coap-client-notls', [
      '-B',
      '30',
      '-v',
      '3',
      '-m',
      'post',
      '-t',
      '50',
      '-f',
      bad,
      `${base}/cfg/radio/ism0`,
    ]).then(
      (r) => r.stdout + r.stderr,
      (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
    );
    expect(answer).toMatch(/4\.00|rfChannel must be/);
    expect((await coapClient([`${base}/cfg/radio/ism0/rfChannel`])).trim()).toBe('12');
  });

  it('takes cfg/all block-wise (libcoap follows the device’s 256-byte blocks) and runs the drifted value', async () => {
    const file = join(scratch.dir, 'secureConfig.cbor');
    await writeFile(file, secureConfigOf(epcEthernetScm2()));
    const answer = await coapClient(['-m', 'post', '-t', '60', '-b', '1024', '-f', file, `${base}/cfg/all`]);
    expect(answer.trim()).toBe('Configuration applied');
    expect((await coapClient([`${base}/cfg/net/eth0/port0/ip`])).trim()).toBe('"192.168.3.10/24"');
    // The file says 500; --fault-param-drift makes it run 1024.
    expect((await coapClient([`${base}/cfg/sf/smcu/global/timeoutMs`])).trim()).toBe('1024');
    expect((await coapClient([`${base}/cfg/sf/smcu/global/txRateMs`])).trim()).toBe('50');
  });

  it('takes a firmware package at fl/fw/epc and comes back with its version', async () => {
    const file = join(scratch.dir, 'package.cbor');
    await writeFile(file, encodeEpcFirmwareBody(simulatedVendorImage('1.3.0', 30_000)));
    const answer = await coapClient(['-m', 'post', '-t', '60', '-b', '1024', '-f', file, `${base}/fl/fw/epc`]);
    expect(answer).toMatch(/Update started: package verified, installing 1\.3\.0/);
    let version = '';
    for (let i = 0; i < 100 && version !== '"1.3.0"'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      version = (await coapClient([`${base}/info/fw/version`]).catch(() => '')).trim();
    }
    expect(version).toBe('"1.3.0"');
    expect(JSON.parse(await readFile(join(scratch.dir, 'state', serial, 'vendor-device.json'), 'utf8'))).toMatchObject({
      firmwareVersion: '1.3.0',
    });
  });
});
