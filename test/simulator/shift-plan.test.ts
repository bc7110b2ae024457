import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseShiftPlan, runShift, type ShiftRun } from '../../simulator/shift-plan';
import { useScratchDirPerTest } from '../fixtures/scratch';
import { serviceKeys } from '../fixtures/simulated-device';
import { runSimulatorCli } from './helpers/cli-process';

/** The simulator's shift plan: what a shift file may say, and acting it out on ptys. */

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const EPC = { deviceType: 'EPC', serialNumber: 'EPC000101' };
/** The device and a second one answering with its serial number: the copy gets a port of its own. */
const DEVICE_AND_COPY = [EPC, { id: 'copy', ...EPC }];
/** A shift file that plugs the device and its copy in and out on ptys in `ptyDir`, as `plan` says. */
const deviceAndCopyShift = (ptyDir: string, plan: object[]) => ({
  defaults: { ptyDir },
  devices: DEVICE_AND_COPY,
  plan,
});

describe('a shift file', () => {
  it('reads devices, timed steps in order, and an unplug during the firmware transfer as the device’s own pull', () => {
    const plan = parseShiftPlan({
      devices: DEVICE_AND_COPY,
      plan: [
        { at: 500, plug: 'copy' },
        { at: 0, plug: 'EPC000101' },
        { unplug: 'EPC000101', duringFirmwareAt: 20000, for: 1500 },
      ],
    });
    expect(plan.devices.map((d) => d.id)).toEqual(['EPC000101', 'copy']);
    expect(plan.devices[0]!.faults).toEqual({ pullAt: 20000, replugAfterMs: 1500 });
    expect(plan.steps).toEqual([
      { at: 0, action: 'plug', id: 'EPC000101' },
      { at: 500, action: 'plug', id: 'copy' },
    ]);
  });

  it('names what is wrong', () => {
    expect(() => parseShiftPlan({ devices: [EPC], plan: [{ at: 0, plug: 'EPC000999' }] }, 'shift.json')).toThrow(
      'shift.json: plan step 1 names "EPC000999", which is not among the devices (EPC000101).',
    );
    expect(() => parseShiftPlan({ devices: [EPC, EPC], plan: [{ at: 0, plug: 'EPC000101' }] })).toThrow(
      'two devices have the id "EPC000101"',
    );
    expect(() => parseShiftPlan({ devices: [EPC], plan: [{ at: 0, unplug: 'EPC000101' }] })).toThrow(
      '"EPC000101" is unplugged at 0 ms before it was ever plugged in',
    );
    expect(() => parseShiftPlan({ devices: [EPC], plan: [] })).toThrow('plan: a shift needs a plan');
    expect(() => parseShiftPlan({ devices: [EPC], plan: [{ at: -1, plug: 'EPC000101' }] })).toThrow(/plan\.0/);
  });
});

describe('acting out a shift', () => {
  // Registered first, so removed after the run is stopped.
  const scratch = useScratchDirPerTest('shift');
  let run: ShiftRun | undefined;
  afterEach(async () => {
    await run?.stop();
    run = undefined;
  });

  it('plugs devices in at their time, a copied serial on a port of its own, and pulls and replugs them', async () => {
    const ptyDir = join(scratch.dir, 'pty');
    const plan = parseShiftPlan(
      deviceAndCopyShift(ptyDir, [
        { at: 0, plug: 'EPC000101' },
        { at: 50, plug: 'copy' },
        { at: 100, unplug: 'EPC000101' },
        { at: 150, plug: 'EPC000101' },
      ]),
    );
    const seen: string[] = [];
    const presence: boolean[] = [];
    run = runShift(
      { ...plan, stateDir: join(scratch.dir, 'state'), publicKeyPem: serviceKeys.publicKeyPem },
      {
        onStep: (step) => {
          seen.push(`${step.action} ${step.id} ${step.device.descriptor.serialNumber}`);
          void exists(join(ptyDir, 'EPC000101')).then((present) => presence.push(present));
        },
      },
    );
    await run.finished;
    expect(seen).toEqual([
      'plug EPC000101 EPC000101',
      'plug copy EPC000101',
      'unplug EPC000101 EPC000101',
      'plug EPC000101 EPC000101',
    ]);
    expect(run.devices.get('copy')!.descriptor.path).toBe(join(ptyDir, 'copy'));
    expect(await exists(join(ptyDir, 'copy'))).toBe(true);
    expect(await exists(join(ptyDir, 'EPC000101'))).toBe(true);
    expect(presence[2]).toBe(false);
  });
});

describe('npm run simulator -- --shift FILE', () => {
  const scratch = useScratchDirPerTest('shift-cli');

  it('acts the plan out, one JSON line per step and one when the plan is done, until SIGINT', async () => {
    const ptyDir = join(scratch.dir, 'pty');
    const file = join(scratch.dir, 'shift.json');
    await writeFile(join(scratch.dir, 'service.pem'), serviceKeys.publicKeyPem);
    const plan = [
      { at: 0, plug: 'EPC000101' },
      { at: 20, plug: 'copy' },
      { at: 40, unplug: 'copy' },
    ];
    await writeFile(file, JSON.stringify(deviceAndCopyShift(ptyDir, plan)));
    const run = runSimulatorCli(
      ['--shift', file, '--public-key', join(scratch.dir, 'service.pem'), '--state-dir', join(scratch.dir, 'state')],
      4,
    );
    const lines = await run.lines;
    expect(lines.map((l) => [l.shift, l.id ?? null, l.serialNumber ?? null])).toEqual([
      ['plug', 'EPC000101', 'EPC000101'],
      ['plug', 'copy', 'EPC000101'],
      ['unplug', 'copy', 'EPC000101'],
      ['plan-done', null, null],
    ]);
    expect(lines[1]).toMatchObject({ link: 'serial', path: join(ptyDir, 'copy') });
    expect(await exists(join(ptyDir, 'EPC000101'))).toBe(true);
    expect(await exists(join(ptyDir, 'copy'))).toBe(false);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('names a mistake in the file and exits 1', async () => {
    const file = join(scratch.dir, 'shift.json');
    await writeFile(join(scratch.dir, 'service.pem'), serviceKeys.publicKeyPem);
    await writeFile(file, JSON.stringify({ devices: [EPC], plan: [{ at: 0, plug: 'EPC000102' }] }));
    const run = runSimulatorCli(['--shift', file, '--public-key', join(scratch.dir, 'service.pem')], 1);
    run.lines.catch(() => undefined);
    expect(await run.exit).toBe(1);
    expect(run.stderr()).toContain(
      `simulator: ${file}: plan step 1 names "EPC000102", which is not among the devices (EPC000101).`,
    );
  });
});
