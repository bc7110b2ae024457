import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../../../domain/files/cbor';
import { CONFIG_FILE_FORMAT_LAYOUT2, decodeConfigFile, encodeConfigFile } from '../../../../domain/files/config-file';
import { organizationSigner } from '../../../../server/configurations/organization-keys';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { logInCli, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * A configuration file of layout 2, saved before the service served layout 3, still goes to a
 * device of ours through the CLI over a pty: checked, applied, confirmed. The service's layout-3
 * file then replaces it on the same device.
 */

const startWorld = worldPerTest();

describe('device configuration apply with a layout-2 file', () => {
  it(
    'applies and confirms a saved layout-2 file over a pty, then the layout-3 file of the service',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('config-layout2');
      await buildFlow(w.client, epcToEpcOverEthernet);
      await logInCli(w);
      const device = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        firmwareVersion: '1.1.0',
      });

      // The file the service made, written again in layout 2 by the organization's own key: what a
      // technician saved before the change.
      const served = decodeConfigFile((await w.client.devices.fetchConfigurationFile('EPC000101')).bytes);
      const signer = await organizationSigner(w.service!.db, w.service!.ctx.secrets, w.orgId);
      const saved = encodeConfigFile({ ...served.content, format: CONFIG_FILE_FORMAT_LAYOUT2 }, signer);
      expect((decodeCbor(saved) as Record<string, unknown>).format).toBe(CONFIG_FILE_FORMAT_LAYOUT2);
      const dir = join(w.root, 'saved');
      await mkdir(dir, { recursive: true });
      const path = join(dir, 'EPC000101.cbor');
      await writeFile(path, saved);

      const applied = await w.cli(['device', 'configuration', 'apply', 'EPC000101', '-f', path]);
      expect(applied.code, applied.stderr).toBe(0);
      expect(device.state().config).toMatchObject({ syncId: served.syncId, sequence: served.sequence, blank: false });
      const listed = async () => (await w.client.devices.list({ serial: 'EPC000101' })).items[0];
      expect((await listed())?.deployedSyncId).toBe(served.syncId);

      // The service's file (layout 3, a newer sequence, the same content and so the same syncId).
      const updated = await w.cli(['device', 'configuration', 'update', 'EPC000101']);
      expect(updated.code, updated.stderr).toBe(0);
      expect(device.state().config!.syncId).toBe(served.syncId);
      expect(device.state().config!.sequence).toBeGreaterThan(served.sequence);
      expect((await listed())?.deployedSyncId).toBe(served.syncId);
    },
  );
});
