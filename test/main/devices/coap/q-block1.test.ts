import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UdpLink } from '../../../../main/devices/links/udp-link';
import { uploadFirmware } from '../../../../main/devices/operations/firmware';
import { identify } from '../../../../main/devices/operations/identify';
import { DeviceSession } from '../../../../main/devices/session';
import type { SimulatedDevice, SimulatedDeviceOptions } from '../../../../simulator';
import { signedManifestFor, testReleaseKey } from '../../../fixtures/release-key';
import { runSimulatorCli } from '../../../simulator/helpers/cli-process';
import { firmwareImage, serviceKeys, startDevice, uniqueSerial, useDeviceBench } from '../helpers/simulated';

const bench = useDeviceBench('q-block1');

async function attachUdp(
  options: Partial<SimulatedDeviceOptions> = {},
  session: { ackTimeoutMs?: number } = {},
): Promise<{ device: SimulatedDevice; session: DeviceSession }> {
  const device = await startDevice(bench.dir, {
    serialNumber: uniqueSerial('EPC'),
    link: { udp: { host: '127.0.0.1', port: 0 } },
    ...options,
  });
  const opened = await DeviceSession.open(
    new UdpLink({ host: device.descriptor.host!, port: device.descriptor.port! }),
    { reconnectTimeoutMs: 30_000, ...session },
  );
  bench.keep(device, opened);
  return { device, session: opened };
}

function upload(session: DeviceSession, image: Uint8Array, version: string) {
  return uploadFirmware(session, image, { signedManifest: signedManifestFor(image), version, deviceType: 'EPC' });
}

describe('firmware upload over UDP with Q-Block1 (RFC 9177)', () => {
  it('sends the image in payload sets: the device answers a set, not a block', async () => {
    const { device, session } = await attachUdp();
    expect((await identify(session)).qBlock1).toBe(true);
    const image = firmwareImage('2.0.0', 300 * 1024);
    const answersBefore = session.engine.stats.received;
    await upload(session, image, '2.0.0');
    expect(device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.length });
    const blocks = Math.ceil(image.length / 1024);
    // Block1 would have brought one answer per block; sets of 128 bring three, plus the announce's.
    expect(session.engine.stats.received - answersBefore).toBeLessThan(10);
    expect(session.engine.stats.sent).toBeGreaterThanOrEqual(blocks);
  });

  it('sends payload sets of the size the device gives in /info, not a fixed 128', async () => {
    const { device, session } = await attachUdp({ qBlock1MaxPayloads: 16 });
    expect(await identify(session)).toMatchObject({ qBlock1: true, qBlock1MaxPayloads: 16 });
    const image = firmwareImage('2.0.1', 100 * 1024);
    const setEnds: string[] = [];
    const request = session.engine.request.bind(session.engine);
    // Each set ends in the one CON payload the host waits for; the NON payloads go past request().
    session.engine.request = (sent) => {
      if (sent.step.startsWith('firmware block')) setEnds.push(sent.step);
      return request(sent);
    };
    await upload(session, image, '2.0.1');
    expect(device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.length });
    const blocks = Math.ceil(image.length / 1024);
    expect(setEnds).toEqual(
      Array.from(
        { length: Math.ceil(blocks / 16) },
        (_, set) =>
          `firmware block ${Math.min(blocks - 1, set * 16 + 15)} (offset ${Math.min(blocks - 1, set * 16 + 15) * 1024})`,
      ),
    );
  });

  it("repairs lost blocks from the device's missing-blocks lists, through a receive window of one block", async () => {
    const { device, session } = await attachUdp(
      { maxInFlight: 1, faults: { drop: 0.03, seed: 7 } },
      { ackTimeoutMs: 100 },
    );
    const image = firmwareImage('2.1.0', 200 * 1024);
    await upload(session, image, '2.1.0');
    expect(device.faultStats.dropped).toBeGreaterThan(0);
    // Blocks were sent again: the lost ones, and those the one-block window could not take after them.
    expect(session.engine.stats.sent).toBeGreaterThan(Math.ceil(image.length / 1024) + 10);
    // The device verified the hash of what it stored: every repaired block landed where it belongs.
    expect(device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.length });
  });

  it('resumes after the link was gone long enough for the host to give up, from the offset the device acknowledged', async () => {
    const { device, session } = await attachUdp(
      { qBlock1MaxPayloads: 128, faults: { pullAt: 150 * 1024, replugAfterMs: 2500 } },
      { ackTimeoutMs: 50 },
    );
    const image = firmwareImage('2.2.0', 400 * 1024);
    const result = await upload(session, image, '2.2.0');
    expect(device.faultStats.pulls).toBe(1);
    expect(result.announcedOffsets).toHaveLength(2);
    // The first set (128 KiB) was acknowledged before the pull at 150 KiB.
    expect(result.announcedOffsets[1]).toBeGreaterThanOrEqual(128 * 1024);
    expect(result.announcedOffsets[1]).toBeLessThan(image.length);
    expect(device.state().upload).toMatchObject({ state: 'received' });
  });
});

describe('a simulator killed in the middle of a Q-Block1 upload', () => {
  it('keeps a state the host resumes from, the acknowledged bytes on disk, and the old image running', async () => {
    const serial = uniqueSerial('EPC');
    const keyFile = join(bench.dir, 'service.pem');
    const releaseKeyFile = join(bench.dir, 'release.pem');
    await writeFile(keyFile, serviceKeys.publicKeyPem);
    await writeFile(releaseKeyFile, testReleaseKey.publicKeyPem);
    const stateDir = join(bench.dir, 'killed');
    // A slow flash (200 kB/s) leaves time to kill the process with the upload well under way.
    const args = [
      '--type',
      'EPC',
      '--serial',
      serial,
      '--link',
      'udp:127.0.0.1:0',
      '--public-key',
      keyFile,
      '--release-key-pub',
      releaseKeyFile,
      '--state-dir',
      stateDir,
      '--flash-rate',
      '200000',
    ];
    const image = firmwareImage('3.0.0', 600 * 1024);

    const first = runSimulatorCli(args, 1);
    try {
      const [line] = await first.lines;
      const session = await DeviceSession.open(new UdpLink({ host: '127.0.0.1', port: line!.port as number }), {
        ackTimeoutMs: 100,
        reconnectTimeoutMs: 1000,
      });
      const stop = new AbortController();
      const killed = new Promise<void>((resolve) => {
        void uploadFirmware(session, image, {
          signedManifest: signedManifestFor(image),
          version: '3.0.0',
          deviceType: 'EPC',
          signal: stop.signal,
          onProgress: ({ bytes }) => {
            if (bytes >= 256 * 1024 && first.child.exitCode === null && !first.child.killed) {
              first.child.kill('SIGKILL');
              resolve();
            }
          },
        }).catch(() => undefined);
      });
      await killed;
      await first.exit;
      stop.abort();
      await session.close();
    } finally {
      first.child.kill('SIGKILL');
    }

    const saved = JSON.parse(await readFile(join(stateDir, serial, 'device.json'), 'utf8')) as {
      firmwareVersion: string;
      upload: { state: string; ackedOffset: number };
    };
    expect(saved.firmwareVersion).toBe('1.0.0');
    expect(saved.upload.state).toBe('receiving');
    expect(saved.upload.ackedOffset).toBeGreaterThan(0);
    // Whatever progress was saved, the bytes it covers are in the staged bank.
    const staged = await readFile(join(stateDir, serial, 'staged.bin'));
    expect(staged.length).toBeGreaterThanOrEqual(saved.upload.ackedOffset);
    expect(
      Buffer.compare(
        staged.subarray(0, saved.upload.ackedOffset),
        Buffer.from(image.subarray(0, saved.upload.ackedOffset)),
      ),
    ).toBe(0);

    const second = runSimulatorCli(args, 1);
    try {
      const [line] = await second.lines;
      const session = await DeviceSession.open(new UdpLink({ host: '127.0.0.1', port: line!.port as number }), {
        ackTimeoutMs: 200,
      });
      try {
        expect((await identify(session)).firmwareVersion).toBe('1.0.0');
        const result = await upload(session, image, '3.0.0');
        expect(result.announcedOffsets).toEqual([saved.upload.ackedOffset - (saved.upload.ackedOffset % 1024)]);
        const status = await identify(session);
        expect(status.state).toBe('received');
        expect(status.firmwareVersion).toBe('1.0.0');
      } finally {
        await session.close();
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exit;
    }
  });
});
