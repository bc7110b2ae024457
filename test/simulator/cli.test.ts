import { access, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReleaseKeyPair } from '../../domain/files/firmware-release-key';
import { CODE } from '../../main/devices/coap';
import { testReleaseKey } from '../fixtures/release-key';
import { announcement, scratchDir, serviceKeys, testImage, uniqueSerial } from './helpers/fixtures';
import { connectSimulatedBleBindings } from '../../simulator';
import { portsMatching } from '../../main/devices/discovery/serial-candidates';
import { runSimulatorCli } from './helpers/cli-process';
import { connectTransport, nobleWith, scanFor } from './helpers/noble';
import { errorCode, RawCoapClient } from './helpers/raw-client';
import { openSerialTransport, openUdpTransport } from './helpers/transports';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let keyFile: string;
beforeAll(async () => {
  scratch = await scratchDir('cli');
  keyFile = join(scratch.dir, 'service.pem');
  await writeFile(keyFile, serviceKeys.publicKeyPem);
});
afterAll(async () => {
  await scratch.cleanup();
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('npm run simulator', () => {
  it('starts a UDP device, prints where it is, answers, and exits cleanly on SIGTERM', async () => {
    const serial = uniqueSerial('EPC');
    const run = runSimulatorCli(
      [
        '--type',
        'EPC',
        '--serial',
        serial,
        '--link',
        'udp:127.0.0.1:0',
        '--public-key',
        keyFile,
        '--state-dir',
        join(scratch.dir, 'state'),
      ],
      1,
    );
    const [line] = await run.lines;
    expect(line).toMatchObject({ serialNumber: serial, deviceType: 'EPC', link: 'udp', host: '127.0.0.1' });
    const transport = await openUdpTransport('127.0.0.1', line!.port as number);
    const info = await new RawCoapClient(transport).getCbor('info');
    expect(info).toMatchObject({ serialNumber: serial, deviceType: 'EPC' });
    await transport.close();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(JSON.parse(await readFile(join(scratch.dir, 'state', serial, 'device.json'), 'utf8'))).toMatchObject({
      serialNumber: serial,
    });
  });

  it('starts a fleet from a file with a pty that the host finds under the port glob until SIGINT', async () => {
    const simDir = join(scratch.dir, 'sim');
    const pty = uniqueSerial('SRCP');
    const udp = uniqueSerial('EPC');
    const fleetFile = join(scratch.dir, 'fleet.json');
    await writeFile(
      fleetFile,
      JSON.stringify({
        defaults: { baudRate: 921600 },
        devices: [
          { type: 'SRCP', serial: pty, link: 'pty', firmwareVersion: '3.1.4' },
          { deviceType: 'EPC', serialNumber: udp, link: 'udp:127.0.0.1:0' },
        ],
      }),
    );
    const run = runSimulatorCli(
      ['--fleet', fleetFile, '--public-key', keyFile, '--state-dir', join(scratch.dir, 'fleet-state'), '--drop', '0'],
      2,
      {
        PROVISIONER_SIMULATOR_DIR: simDir,
      },
    );
    const lines = await run.lines;
    const serialLine = lines.find((l) => l.link === 'serial')!;
    expect(serialLine).toMatchObject({ serialNumber: pty, deviceType: 'SRCP', path: join(simDir, 'pty', pty) });
    expect(lines.find((l) => l.link === 'udp')).toMatchObject({ serialNumber: udp });
    // The host finds it by the port glob the simulator's directory answers to; nothing else is written there.
    expect(await portsMatching(join(simDir, 'pty', '*'))).toEqual([serialLine.path]);

    const transport = await openSerialTransport(serialLine.path as string);
    expect(await new RawCoapClient(transport).getCbor('info')).toMatchObject({
      serialNumber: pty,
      firmwareVersion: '3.1.4',
    });
    await transport.close();

    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(await portsMatching(join(simDir, 'pty', '*'))).toEqual([]);
    expect(await exists(serialLine.path as string)).toBe(false);
  });

  it('serves its BLE devices to noble in another process through the endpoint it prints', async () => {
    const serial = uniqueSerial('WESP');
    const run = runSimulatorCli(
      [
        '--type',
        'WESP',
        '--serial',
        serial,
        '--link',
        'ble',
        '--public-key',
        keyFile,
        '--state-dir',
        join(scratch.dir, 'state'),
      ],
      1,
      {
        PROVISIONER_SIMULATOR_DIR: join(scratch.dir, 'sim-ble'),
      },
    );
    const [line] = await run.lines;
    expect(line).toMatchObject({
      link: 'ble',
      serialNumber: serial,
      bleEndpoint: join(scratch.dir, 'sim-ble', 'ble', `${run.child.pid}.sock`),
    });
    const bindings = connectSimulatedBleBindings(line!.bleEndpoint as string);
    try {
      const noble = nobleWith(bindings);
      const peripheral = await scanFor(noble, `WESP-${serial}`);
      expect(peripheral.address).toBe(line!.bleAddress);
      const transport = await connectTransport(peripheral);
      expect(await new RawCoapClient(transport).getCbor('info')).toMatchObject({
        serialNumber: serial,
        deviceType: 'WESP',
      });
      await transport.close();
    } finally {
      bindings.close();
    }
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(await exists(line!.bleEndpoint as string)).toBe(false);
  });

  it('fetches the signing key and the firmware release keys from the service', async () => {
    const served = generateReleaseKeyPair();
    const server: Server = createServer((request, response) => {
      const data =
        request.url === '/v1/config-file-signing-key'
          ? { keyId: serviceKeys.keyId, algorithm: 'ES256', publicKeyPem: serviceKeys.publicKeyPem }
          : request.url === '/v1/firmware-release-keys'
            ? [
                {
                  keyId: served.keyId,
                  name: 'served',
                  algorithm: 'Ed25519',
                  publicKeyPem: served.publicKeyPem,
                  trustedAt: new Date().toISOString(),
                },
              ]
            : undefined;
      if (data === undefined) {
        response.writeHead(404).end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ data, success: true, errors: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = runSimulatorCli(
        [
          '--type',
          'WESP',
          '--serial',
          uniqueSerial('WESP'),
          '--link',
          'udp:127.0.0.1:0',
          '--service-url',
          url,
          '--state-dir',
          join(scratch.dir, 'state'),
        ],
        1,
      );
      const [line] = await run.lines;
      expect(line).toMatchObject({ link: 'udp', deviceType: 'WESP' });
      const transport = await openUdpTransport('127.0.0.1', line!.port as number);
      const client = new RawCoapClient(transport);
      expect((await client.postCbor('fw', announcement(testImage('WESP', '2.0.0', 1024, { key: served })))).code).toBe(
        CODE.CREATED,
      );
      const unknown = await client.postCbor(
        'fw',
        announcement(testImage('WESP', '2.0.0', 1024, { key: testReleaseKey })),
      );
      expect(errorCode(unknown)).toBe('FW_UNTRUSTED_KEY');
      await transport.close();
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
      expect(run.stderr()).not.toMatch(/no firmware release keys/);
    } finally {
      server.close();
    }
  });

  it('trusts the release keys given with --release-key-pub, and none without', async () => {
    const other = generateReleaseKeyPair();
    const third = generateReleaseKeyPair();
    const files = [join(scratch.dir, 'release-a.pub'), join(scratch.dir, 'release-b.pub')];
    await writeFile(files[0]!, testReleaseKey.publicKeyPem);
    // Several keys in one file, as `provisioner release-keys` prints them.
    await writeFile(files[1]!, `${other.publicKeyPem}${third.publicKeyPem}`);
    const run = runSimulatorCli(
      [
        '--type',
        'EPC',
        '--serial',
        uniqueSerial('EPC'),
        '--link',
        'udp:127.0.0.1:0',
        '--public-key',
        keyFile,
        '--release-key-pub',
        files[0]!,
        '--release-key-pub',
        files[1]!,
        '--state-dir',
        join(scratch.dir, 'state'),
      ],
      1,
    );
    const [line] = await run.lines;
    const transport = await openUdpTransport('127.0.0.1', line!.port as number);
    const client = new RawCoapClient(transport);
    for (const key of [testReleaseKey, other, third])
      expect((await client.postCbor('fw', announcement(testImage('EPC', '2.0.0', 1024, { key })))).code).toBe(
        CODE.CREATED,
      );
    await transport.close();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);

    const keyless = runSimulatorCli(
      [
        '--type',
        'EPC',
        '--serial',
        uniqueSerial('EPC'),
        '--link',
        'udp:127.0.0.1:0',
        '--public-key',
        keyFile,
        '--state-dir',
        join(scratch.dir, 'state'),
      ],
      1,
    );
    const [keylessLine] = await keyless.lines;
    const keylessTransport = await openUdpTransport('127.0.0.1', keylessLine!.port as number);
    expect(
      errorCode(
        await new RawCoapClient(keylessTransport).postCbor('fw', announcement(testImage('EPC', '2.0.0', 1024))),
      ),
    ).toBe('FW_UNTRUSTED_KEY');
    await keylessTransport.close();
    keyless.child.kill('SIGTERM');
    expect(await keyless.exit).toBe(0);
    expect(keyless.stderr()).toMatch(/no firmware release keys/);

    const notAKey = runSimulatorCli(
      ['--type', 'EPC', '--serial', 'EPC1', '--public-key', keyFile, '--release-key-pub', keyFile],
      1,
    );
    expect(await notAKey.exit).toBe(1);
    expect(notAKey.stderr()).toMatch(/Ed25519/);
    await notAKey.lines.catch(() => undefined);
  });

  it('says what is wrong with bad flags and exits non-zero', async () => {
    const noKey = runSimulatorCli(['--type', 'EPC', '--serial', 'EPC1', '--link', 'pty'], 1);
    expect(await noKey.exit).toBe(1);
    expect(noKey.stderr()).toMatch(/--public-key/);
    await noKey.lines.catch(() => undefined);
    const badLink = runSimulatorCli(
      ['--type', 'EPC', '--serial', 'EPC1', '--link', 'serial', '--public-key', keyFile],
      1,
    );
    expect(await badLink.exit).toBe(1);
    expect(badLink.stderr()).toMatch(/pty, ble or udp:HOST:PORT/);
    await badLink.lines.catch(() => undefined);
    const badStall = runSimulatorCli(
      ['--type', 'EPC', '--serial', 'EPC1', '--stall', '5000', '--public-key', keyFile],
      1,
    );
    expect(await badStall.exit).not.toBe(0);
    expect(badStall.stderr()).toMatch(/MS@OFFSET/);
    await badStall.lines.catch(() => undefined);
  });
});
