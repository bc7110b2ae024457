import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { startCoapSpy, type CoapSpy } from './helpers/coap-spy';
import { buildFlow } from './helpers/flows';
import { logInCli, registerDevices, results, worldPerTest, type World } from './helpers/world';

/**
 * What goes wrong on a plant floor, end to end through the real CLI: the service going away in the
 * middle of a job, a cable pulled during an upload, and a configuration file for another device.
 * The run the service is stopped under is the real `provisioner` process (its JSON lines are read
 * as they come); the other commands run the CLI's main in this process (world.cliInProcess), the
 * same commands and answers without two seconds of start-up each.
 */

const startWorld = worldPerTest();
let spy: CoapSpy | undefined;
// Registered after the world's: closed before the world is disposed.
afterEach(async () => {
  await spy?.close();
  spy = undefined;
});

async function firmwareConfirmations(w: World, serialNumber: string): Promise<number> {
  const { rows } = await w.service!.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1 AND kind = 'firmware'`,
    [serialNumber],
  );
  return rows[0]?.n ?? 0;
}

async function record(w: World, serialNumber: string) {
  return (await w.client.devices.list({ serial: serialNumber })).items[0]!;
}

describe('the service stops during a job', () => {
  it(
    'installs from the cache, keeps the confirmations in the outbox, and delivers each exactly once when the service is back',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('outage');
      await registerDevices(w, ['EPC000101', 'EPC000102']);
      await logInCli(w);
      // 115200 baud: the upload lasts long enough (~6 s for 64 KiB) to stop the service while it runs.
      const first = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        baudRate: 115200,
      });

      let stopping: Promise<void> | undefined;
      const during = await w.cli(['--json', 'device', 'firmware', 'update', 'EPC000101'], {
        onLine: (line) => {
          if (stopping || !line.startsWith('{')) return;
          const event = JSON.parse(line) as { event: string; job?: { phase: string; bytesDone: number } };
          if (event.event === 'progress' && event.job?.phase === 'uploading' && event.job.bytesDone > 0)
            stopping = w.stopService();
        },
      });
      await stopping;
      expect(stopping, 'the service was stopped during the upload').toBeDefined();
      expect(during.code, during.stderr).toBe(0);
      const [duringResult] = results(during);
      expect(duringResult?.job).toMatchObject({ serialNumber: 'EPC000101', phase: 'done', confirmation: 'queued' });
      expect(first.state().firmwareVersion).toBe('1.1.0');

      // With the service down from the start: the firmware comes from the cache.
      const second = await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000102', link: 'pty' });
      const offline = await w.cliInProcess(['device', 'firmware', 'update', 'EPC000102']);
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stderr).toContain('The service is unreachable');
      expect(offline.stderr).toContain('installing the newest cached EPC firmware, version 1.1.0');
      expect(offline.stdout).toContain(
        'EPC000102: firmware 1.1.0 installed (was 1.0.0); confirmation waiting in the outbox',
      );
      expect(second.state().firmwareVersion).toBe('1.1.0');

      const waiting = JSON.parse((await w.cliInProcess(['--json', 'outbox', 'list'])).stdout) as Array<{
        serialNumber: string;
        kind: string;
        state: string;
      }>;
      expect(waiting.map((e) => [e.serialNumber, e.kind, e.state]).sort()).toEqual([
        ['EPC000101', 'firmware', 'pending'],
        ['EPC000102', 'firmware', 'pending'],
      ]);

      await w.startServiceAgain();
      const sync = await w.cliInProcess(['outbox', 'sync']);
      expect(sync.code, sync.stderr).toBe(0);
      expect(sync.stdout).toContain('Sent 2 confirmations; the outbox is empty.');
      for (const serialNumber of ['EPC000101', 'EPC000102']) {
        const device = await record(w, serialNumber);
        expect(device.firmwareVersion).toBe('1.1.0');
        expect(device.lastFirmwareApply?.success).toBe(true);
        expect(await firmwareConfirmations(w, serialNumber)).toBe(1);
      }
      // Nothing is sent twice: a second sync finds nothing, the service still has one of each.
      const again = await w.cliInProcess(['outbox', 'sync']);
      expect(again.stdout).toContain('Sent 0 confirmations; the outbox is empty.');
      expect(JSON.parse((await w.cliInProcess(['--json', 'outbox', 'list'])).stdout)).toEqual([]);
      for (const serialNumber of ['EPC000101', 'EPC000102'])
        expect(await firmwareConfirmations(w, serialNumber)).toBe(1);
    },
  );
});

describe('the cable is pulled during a firmware upload', () => {
  it('resumes from where the device stopped when it comes back in time', { timeout: 300_000 }, async () => {
    const w = await startWorld('pull-resume');
    await registerDevices(w, ['EPC000101']);
    await logInCli(w);
    const device = await w.startDevice({
      deviceType: 'EPC',
      serialNumber: 'EPC000101',
      link: 'pty',
      faults: { pullAt: 24_000, replugAfterMs: 800 },
    });

    const run = await w.cliInProcess(['--json', 'device', 'firmware', 'update', 'EPC000101']);
    expect(run.code, run.stderr).toBe(0);
    const [result] = results(run);
    expect(device.faultStats.pulls).toBe(1);
    expect(result?.job.phase).toBe('done');
    expect(result?.job.resumedFrom as number).toBeGreaterThan(0);
    expect(result?.job.resultMessage).toMatch(
      /^firmware 1\.1\.0 installed \(was 1\.0\.0\); the upload resumed at \d+%$/,
    );
    expect(device.state().firmwareVersion).toBe('1.1.0');
    expect((await record(w, 'EPC000101')).lastFirmwareApply?.success).toBe(true);
  });

  it(
    'fails cleanly with one line when it does not come back, confirms the failure, and resumes when run again',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('pull-fail');
      await registerDevices(w, ['EPC000101']);
      await logInCli(w);
      const device = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        faults: { pullAt: 32_000, replugAfterMs: 3_600_000 },
      });

      const failed = await w.cliInProcess(['--reconnect-timeout', '2', 'device', 'firmware', 'update', 'EPC000101']);
      expect(failed.code).toBe(1);
      const errors = failed.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^error: EPC000101: firmware upload failed at \d+% \(cable pulled\?\): the device went away and did not come back within 2 s; plug it in and run the same command again to resume \(failure confirmed to the service\)$/,
      );
      expect(device.state().firmwareVersion).toBe('1.0.0');
      const afterFailure = await record(w, 'EPC000101');
      expect(afterFailure.lastFirmwareApply?.success).toBe(false);
      expect(afterFailure.lastFirmwareApply?.error).toMatch(/^firmware upload failed at \d+%/);
      expect(afterFailure.firmwareVersion).toBeNull();

      await device.plug();
      const resumed = await w.cliInProcess(['device', 'firmware', 'update', 'EPC000101']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(
        /EPC000101: firmware 1\.1\.0 installed \(was 1\.0\.0\); the upload resumed at [1-9]\d*%; confirmed to the service/,
      );
      expect(device.state().firmwareVersion).toBe('1.1.0');
      const afterResume = await record(w, 'EPC000101');
      expect(afterResume.firmwareVersion).toBe('1.1.0');
      expect(afterResume.lastFirmwareApply?.success).toBe(true);
    },
  );
});

describe('a configuration file for another device', () => {
  it('is refused before anything is sent to the device', { timeout: 300_000 }, async () => {
    const w = await startWorld('wrong-file');
    await buildFlow(w.client, epcToEpcOverEthernet);
    await logInCli(w);
    const device = await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'udp' });
    spy = await startCoapSpy(device.descriptor.port!);
    const bootId = device.state().bootId;

    const download = await w.cliInProcess([
      'device',
      'configuration',
      'download',
      'EPC000102',
      '-o',
      join(w.root, 'files'),
    ]);
    expect(download.code, download.stderr).toBe(0);
    const file = join(w.root, 'files', 'EPC000102.cbor');
    expect(download.stdout).toContain(`EPC000102: saved ${file}`);

    // Named by serial number: refused before the link is even opened.
    const bySerial = await w.cliInProcess([
      'device',
      'configuration',
      'apply',
      'EPC000101',
      '-f',
      file,
      '--link',
      spy.link,
    ]);
    expect(bySerial.code).toBe(1);
    expect(bySerial.stderr.trim()).toBe(
      'error: EPC000101: EPC000102.cbor is for device EPC000102, not EPC000101; nothing was sent; download the file of EPC000101 (provisioner device configuration download EPC000101)\n' +
        // The catalogue's words (docs/errors.md), then the code for support.
        'note: EPC000101: configuration: The configuration file is for another device (another serial number). Use the file of this device: apply from the service, or download its own file. (CONFIG_WRONG_DEVICE)',
    );
    expect(spy.paths).toEqual([]);

    // Named by link only: the device is asked who it is, and nothing else: GET /info, and the
    // protocol probe's read of the vendor's identity (docs/vendor-devices.md, Detection), a 4.04 here.
    const byLink = await w.cliInProcess(['device', 'configuration', 'apply', '-f', file, '--link', spy.link]);
    expect(byLink.code).toBe(1);
    expect(byLink.stderr).toContain('EPC000102.cbor is for device EPC000102, not EPC000101; nothing was sent');
    expect(spy.paths.length).toBeGreaterThan(0);
    expect(spy.paths.filter((path) => path !== 'info' && path !== 'info/fw/version')).toEqual([]);

    expect(device.state().config).toBeNull();
    expect(device.state().bootId).toBe(bootId);
    expect((await record(w, 'EPC000101')).lastConfigurationApply).toBeNull();
    expect(JSON.parse((await w.cliInProcess(['--json', 'outbox', 'list'])).stdout)).toEqual([]);
  });
});
