import { describe, expect, it } from 'vitest';
import { logInCli, registerDevices, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * Why a job failed, in the run's language (issue 29): a cable pulled during a firmware upload, the
 * device not back in time, end to end through the real CLI on a simulated device. The core sends
 * the reason as codes and values (JobView.failureReason); the German line is made from them, with
 * the percent and the wait in German. (The English sentence and the reason side by side, as
 * `--json` carries them: test/main/engine/jobs/failure-reason.test.ts.)
 */

const startWorld = worldPerTest();

describe('a failed job’s reason in German', () => {
  it('says where it failed and why, in the run’s language', { timeout: 300_000 }, async () => {
    const w = await startWorld('failure-reason-de');
    await registerDevices(w, ['EPC000101']);
    await logInCli(w);
    const device = await w.startDevice({
      deviceType: 'EPC',
      serialNumber: 'EPC000101',
      link: 'pty',
      faults: { pullAt: 32_000, replugAfterMs: 3_600_000 },
    });

    const failed = await w.cli(['--reconnect-timeout', '2', 'device', 'firmware', 'update', 'EPC000101'], {
      env: { LANG: 'de_DE.UTF-8' },
    });
    expect(failed.code).toBe(1);
    const errors = failed.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^error: EPC000101: Übertragung der Firmware bei \d+\u00a0% fehlgeschlagen: Das Gerät kam binnen 2 s nicht zurück \(DEVICE_GONE\) \(Fehlschlag an den Dienst bestätigt\)$/,
    );

    expect(device.state().firmwareVersion).toBe('1.0.0');
  });
});
