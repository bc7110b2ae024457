import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldLabel } from '../../../../domain/field-labels';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { logInCli, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * `device configuration update SN --dry-run`: what would change, in words, and nothing changed.
 * The commands run the CLI's main in this process (world.cliInProcess): the same commands and
 * answers without two seconds of start-up each.
 */

const startWorld = worldPerTest();

describe('configuration update --dry-run', () => {
  it(
    'lists every setting as new before any apply, then only what changed, and applies nothing',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('config-dry-run');
      const configurationId = await buildFlow(w.client, epcToEpcOverEthernet);
      await logInCli(w);
      await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'pty', firmwareVersion: '1.1.0' });

      const first = await w.cliInProcess(['device', 'configuration', 'update', 'EPC000101', '--dry-run']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^EPC000101: no configuration applied → [0-9a-f-]{36}$/m);
      expect(first.stdout).toContain('  Configuration set\n');
      expect(first.stdout).toContain('  Safety timeout not set → 500 ms\n');
      expect(first.stdout).toContain('  IP address not set → 192.168.10.11\n');
      expect(first.stdout).toContain('Dry run: nothing was applied.');
      const listed = async () => (await w.client.devices.list({ serial: 'EPC000101' })).items[0];
      expect((await listed())?.deployedSyncId).toBeNull();

      const applied = await w.cliInProcess(['device', 'configuration', 'update', 'EPC000101']);
      expect(applied.code, applied.stderr).toBe(0);
      const held = (await listed())?.deployedSyncId;
      expect(held).toBeTruthy();

      const same = await w.cliInProcess(['device', 'configuration', 'update', 'EPC000101', '--dry-run']);
      expect(same.code, same.stderr).toBe(0);
      expect(same.stdout).toContain('  already in sync: nothing would change\n');

      await w.client.configurations.update(configurationId, {
        timeoutConfiguration: '1000ms',
        canKBitrate: 'BITRATE_250000',
      });
      const changed = await w.cliInProcess(['device', 'configuration', 'update', 'EPC000101', '--dry-run']);
      expect(changed.code, changed.stderr).toBe(0);
      const lines = changed.stdout.split('\n').filter((line) => line.startsWith('  '));
      expect(lines).toEqual(['  CAN bitrate 500 kbit/s → 250 kbit/s', '  Safety timeout 500 ms → 1 s']);
      expect((await listed())?.deployedSyncId).toBe(held);

      // In German: the basis, each setting's name and the words around the values.
      const german = await w.cliInProcess([
        '--lang',
        'de',
        'device',
        'configuration',
        'update',
        'EPC000101',
        '--dry-run',
      ]);
      expect(german.code, german.stderr).toBe(0);
      const de = createTranslator('de');
      expect(german.stdout).toMatch(new RegExp(`^EPC000101: ${held} angewendet → [0-9a-f-]{36}$`, 'm'));
      expect(german.stdout.split('\n').filter((line) => line.startsWith('  '))).toEqual([
        `  ${fieldLabel('canKBitrate', de)} 500 kbit/s → 250 kbit/s`,
        `  ${fieldLabel('timeoutConfiguration', de)} 500 ms → 1 s`,
      ]);
      expect(fieldLabel('timeoutConfiguration', de)).toBe('Sicherheits-Timeout');

      const json = await w.cliInProcess(['--json', 'device', 'configuration', 'update', 'EPC000101', '--dry-run']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        serialNumber: 'EPC000101',
        dryRun: true,
        appliedSyncId: held,
        appliedContentKnown: true,
        appliedFrom: 'kept copy',
        inSync: false,
      });

      // Another workstation (no copy kept): the service's record of what the applied syncId set
      // gives the same two changes, not every setting as new.
      await rm(join(w.home, 'data', 'accounts'), { recursive: true, force: true });
      const elsewhere = await w.cliInProcess(['--json', 'device', 'configuration', 'update', 'EPC000101', '--dry-run']);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      const plan = JSON.parse(elsewhere.stdout);
      expect(plan).toMatchObject({ appliedSyncId: held, appliedFrom: 'service', inSync: false });
      expect(plan.changes.map((c: { text: string }) => c.text)).toEqual([
        'CAN bitrate 500 kbit/s → 250 kbit/s',
        'Safety timeout 500 ms → 1 s',
      ]);
    },
  );
});
