import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCli, results, startWorld, type World } from '../../engine/jobs/helpers/world';

/**
 * Issue 18 in the CLI: `device update` on a device in no configuration says so before it starts,
 * installs the firmware, then says plainly the configuration step was skipped and why, step by
 * step on its final line, with what to do and the code after; exit code 1. No route in any line.
 */

const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE)\s|configurations\/|\/v1\/|\{id\}/;
let world: World;

beforeAll(async () => {
  world = await startWorld('cli-outcome');
  expect((await loginCli(world)).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await world?.dispose();
});

describe('device update on a device in no configuration', () => {
  it('installs the firmware, skips the configuration saying why, and exits 1', { timeout: 180_000 }, async () => {
    const device = await world.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000103', link: 'pty' });
    await world.client.devices.register({ serialNumber: 'EPC000103', name: 'spare controller' }).catch(() => undefined);

    const run = await world.cli(['device', 'update', 'EPC000103']);
    expect(run.code).toBe(1);
    // Before it starts.
    expect(run.stderr).toContain(
      'note: EPC000103: EPC000103 is in no configuration: add it in Configurations; its firmware is updated and its configuration step will be skipped\n',
    );
    // The final line, step by step.
    expect(run.stdout).toContain(
      'EPC000103: firmware 1.1.0 installed (was 1.0.0), confirmed to the service ✓ · configuration not applied: EPC000103 is in no configuration: add it in Configurations\n',
    );
    // What to do, from the catalogue, and the code after it.
    expect(run.stderr).toContain(
      'note: EPC000103: configuration: The device is in no configuration, so there is no configuration to apply. Add the device in Configurations, then apply the configuration. (DEVICE_NOT_IN_CONFIGURATION)\n',
    );
    expect(`${run.stdout}${run.stderr}`).not.toMatch(ROUTE);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/failed/i);
    expect(device.state().firmwareVersion).toBe('1.1.0');

    // The same in JSON: the job carries each step.
    const json = await world.cli(['--json', 'device', 'update', 'EPC000103']);
    expect(json.code).toBe(1);
    const [result] = results(json);
    expect(result?.job).toMatchObject({ serialNumber: 'EPC000103', phase: 'done', outcome: 'partial' });
    const steps = (
      result?.job as unknown as { steps: Array<{ step: string; status: string; errorCode: string | null }> }
    ).steps;
    expect(steps.find((s) => s.step === 'firmware')?.status).toBe('done');
    expect(steps.find((s) => s.step === 'configuration')).toMatchObject({
      status: 'skipped',
      errorCode: 'DEVICE_NOT_IN_CONFIGURATION',
    });
  });

  it('does not start a configuration-only job for it, and says why', { timeout: 120_000 }, async () => {
    const run = await world.cli(['device', 'configuration', 'update', 'EPC000103']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: EPC000103: configuration not applied: EPC000103 is in no configuration: add it in Configurations (DEVICE_NOT_IN_CONFIGURATION); nothing was started\n',
    );
    expect(run.stdout).toBe('');
  });
});
