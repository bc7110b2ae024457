import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { invokeForWire, type CommissioningReportFileView, type Page } from '../../../../contract/index';
import type { ConfigurationView } from '../../../../contract/configurations';
import { useScratchDir } from '../../../fixtures/scratch';
import {
  coresPerFile,
  demoServicePerFile,
  scriptedDeviceSource,
  serviceAsLocalWorkspace,
  wireValue,
} from '../../../fixtures/test-core';

/**
 * The app's report channel (issue 29): `reports.commissioning` takes the language the app speaks,
 * English when none is given, refuses one it does not know before anything is made, and makes
 * the PDF in it; the JSON is the same in every language. Driven through the contract as a
 * transport would, against the real embedded service; the PDF read back with pdftotext.
 */

const run = promisify(execFile);
const scratch = useScratchDir('report-channel');
const demo = demoServicePerFile({ configurations: true });
const cores = coresPerFile();

async function pdfText(name: string, file: CommissioningReportFileView): Promise<string> {
  const path = join(scratch.dir, name);
  await writeFile(path, Buffer.from(file.contentBase64, 'base64'));
  return (await run('pdftotext', ['-layout', path, '-'])).stdout;
}

describe('reports.commissioning', () => {
  it('makes the report in the language asked for, English by default, and refuses an unknown one', async () => {
    const core = await cores.open(join(scratch.dir, 'core'), {
      host: 'test',
      deviceSource: scriptedDeviceSource(),
      startLocalWorkspace: serviceAsLocalWorkspace(demo.service.url, demo.adminKey),
    });
    await wireValue(core, 'session.useLocalWorkspace', {});
    const page = (await wireValue(core, 'configurations.list', {})) as Page<ConfigurationView>;
    const configuration = page.items.find((c) => c.devices.length > 0);
    expect(configuration, 'the demo has a configuration with devices').toBeDefined();
    const serials = configuration!.devices.map((d) => d.serialNumber);
    const configurationId = configuration!.id;

    const english = (await wireValue(core, 'reports.commissioning', {
      configurationId,
    })) as CommissioningReportFileView;
    const englishText = await pdfText('en.pdf', english);
    expect(englishText).toContain('Commissioning report');
    expect(englishText).toMatch(/Language\s+English \(en\)/);

    for (const [language, heading, named] of [
      ['de', 'Inbetriebnahmeprotokoll', /Sprache\s+Deutsch \(de\)/],
      ['zh', '调试报告', /语言\s+简体中文（zh）/],
      ['fr', 'Rapport de mise en service', /Langue\s+Français \(fr\)/],
      ['es', 'Informe de puesta en marcha', /Idioma\s+Español \(es\)/],
    ] as const) {
      const file = (await wireValue(core, 'reports.commissioning', {
        configurationId,
        language,
      })) as CommissioningReportFileView;
      expect(file.mediaType).toBe('application/pdf');
      const text = await pdfText(`${language}.pdf`, file);
      expect(text, language).toContain(heading);
      expect(text, language).toMatch(named);
      for (const serial of serials) expect(text, `${language}: ${serial}`).toContain(serial);
    }

    // The JSON does not change with the language.
    const jsonOf = async (language: 'en' | 'zh') => {
      const file = (await wireValue(core, 'reports.commissioning', {
        configurationId,
        format: 'json',
        language,
      })) as CommissioningReportFileView;
      const report = JSON.parse(Buffer.from(file.contentBase64, 'base64').toString('utf8')) as Record<string, unknown>;
      // Made a moment apart: only the time it was made may differ.
      return { ...report, generatedAt: null };
    };
    expect(await jsonOf('zh')).toEqual(await jsonOf('en'));

    const refused = await invokeForWire(core, 'reports.commissioning', { configurationId, language: 'xx' } as never);
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(refused)).toMatch(/language/);
  });
});
