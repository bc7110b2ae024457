import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../main/cloud';
import { Ledger } from '../../../../main/engine/ledger';
import { commissioningReportWriter } from '../../../../main/features/station';
import { FileSecretStore } from '../../../../platform/secret-store';
import { useScratchDir } from '../../../fixtures/scratch';
import { demoServicePerFile } from '../../../fixtures/test-core';

/**
 * The commissioning report a station writes beside its shift report at the stop (issue 29): in
 * the language the station was started in, English when none was given. Made from the real
 * embedded service's demo configurations and a ledger on disk; read back with pdftotext.
 */

const run = promisify(execFile);
const scratch = useScratchDir('station-report-language');
const demo = demoServicePerFile({ configurations: true });

describe('the commissioning report at the end of a shift', () => {
  it("is written in the station's language beside the shift report", async () => {
    const client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
    const configurations = [];
    for await (const configuration of client.configurations.listAll()) configurations.push(configuration);
    const configuration = configurations.find((c) => c.devices.length > 0)!;
    const ledger = new Ledger({
      dir: join(scratch.dir, 'ledger'),
      secrets: new FileSecretStore(join(scratch.dir, 'secrets.json')),
    });
    const context = async () => ({
      client,
      ledger,
      workstation: 'ws-station-1',
      service: 'the local workspace',
      orgId: 'demo',
    });

    for (const [language, heading] of [
      [undefined, 'Commissioning report'],
      ['es', 'Informe de puesta en marcha'],
      ['zh', '调试报告'],
    ] as const) {
      const writer =
        language === undefined
          ? commissioningReportWriter(context, configuration.id, configuration.name)
          : commissioningReportWriter(context, configuration.id, configuration.name, language);
      const written = await writer(join(scratch.dir, `shift-${language ?? 'default'}.csv`));
      expect(written.error).toBeNull();
      expect(written.path).toBe(join(scratch.dir, `shift-${language ?? 'default'}-commissioning.pdf`));
      const { stdout: text } = await run('pdftotext', ['-layout', written.path!, '-']);
      expect(text).toContain(heading);
      for (const device of configuration.devices) expect(text).toContain(device.serialNumber);
    }
  });
});
