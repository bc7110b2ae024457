import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimulatedDevice } from '../../../../simulator';
import { loginCli, registerDevices, worldPerFile } from '../../engine/jobs/helpers/world';

/**
 * Two attached devices that claim one serial number (domain/shared-serial.ts): the real EPC000101
 * and a copy on another port. `device list` shows both, confirms nothing read of either, names
 * both links and fails; a job named by that serial number (or `--all`) is not started on either.
 */

const SERIAL = 'EPC000101';
const OTHER = 'EPC000102';

const world = worldPerFile('shared-serial', async (w) => {
  await registerDevices(w, [SERIAL, OTHER]);
  await w.startDevice({ deviceType: 'EPC', serialNumber: SERIAL, link: 'pty' });
  await w.startDevice({ deviceType: 'EPC', serialNumber: OTHER, link: 'pty' });
  // The copy: its own state and port, under the glob the CLI looks at.
  const copy = await startSimulatedDevice({
    deviceType: 'EPC',
    serialNumber: SERIAL,
    link: 'pty',
    baudRate: 921600,
    stateDir: join(w.root, 'copy-state'),
    ptyDir: join(w.simulatorDir, 'pty'),
    ptyPath: join(w.simulatorDir, 'pty', `${SERIAL}-copy`),
    controlSocketPath: join(w.root, 'copy.sock'),
    publicKeyPem: w.publicKeyPem,
  });
  w.devices.push(copy);
  const login = await loginCli(w);
  if (login.code !== 0) throw new Error(login.stderr);
});

const realLink = () => `serial:${join(world().simulatorDir, 'pty', SERIAL)}`;
const copyLink = () => `serial:${join(world().simulatorDir, 'pty', `${SERIAL}-copy`)}`;

describe('two attached devices that claim one serial number', () => {
  it(
    'device list shows both, names both links, confirms nothing of either and fails',
    { timeout: 120_000 },
    async () => {
      const run = await world().cli(['device', 'list']);
      expect(run.code, run.stderr).toBe(1);
      const error = run.stderr.split('\n').find((line) => line.startsWith('error: '));
      expect(error).toMatch(
        new RegExp(
          `^error: Two attached devices claim serial ${SERIAL} \\(serial:.+, serial:.+\\)\\. Nothing is sent to the service for it, and no job can start, until one is unplugged\\.$`,
        ),
      );
      expect(error).toContain(realLink());
      expect(error).toContain(copyLink());
      expect(
        run.stdout.split('\n').filter((line) => line.includes(SERIAL) && line.includes('serial claimed twice')),
      ).toHaveLength(2);
      // The other device is listed and believed as usual; neither claimant's reading reached the service.
      const recordedFirmware = async (serial: string) =>
        (await world().client.devices.list({ serial, limit: 1 })).items.find((d) => d.serialNumber === serial)
          ?.firmwareVersion ?? null;
      expect(await recordedFirmware(OTHER)).not.toBeNull();
      expect(await recordedFirmware(SERIAL)).toBeNull();
    },
  );

  it('a job named by that serial number, or --all, starts on neither', { timeout: 120_000 }, async () => {
    const bySerial = await world().cli(['device', 'firmware', 'update', SERIAL]);
    expect(bySerial.code).toBe(1);
    const line = bySerial.stderr.split('\n').find((l) => l.startsWith(`error: ${SERIAL}: not started.`));
    expect(line).toBeDefined();
    expect(line).toContain(realLink());
    expect(line).toContain(copyLink());
    const all = await world().cli(['device', 'firmware', 'update', '--all', '--json']);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`${SERIAL}: not started. `);
    const started = all.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event: string; job?: { serialNumber: string | null } });
    expect(started.filter((e) => e.job?.serialNumber === SERIAL)).toEqual([]);
    expect(started.some((e) => e.job?.serialNumber === OTHER)).toBe(true);
  });
});
