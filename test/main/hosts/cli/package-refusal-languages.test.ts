import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliLoginStore } from '../../../../main/hosts/cli/credentials';
import { resolveDataDirs } from '../../../../platform/data-dirs';
import { useScratchDir } from '../../../fixtures/scratch';
import { makePackage, ORG_ID, packageWorld, SERVICE_URL } from '../../features/packages/helpers';
import { runCliIn } from '../../../fixtures/cli-in-process';

/**
 * A work package's refusals in the technician's language (issue 29): the core decides the refusal
 * as a code with its values, and `package import` says it from the core catalog in the run's
 * language; the organization, the address and the codes stay as they are. English is the core's
 * sentence (package-import.test.ts holds it).
 */

const scratch = useScratchDir('cli-package-refusal-languages');

const cli = (home: string, args: readonly string[]) =>
  runCliIn(home, args, { env: { ...process.env, PROVISIONER_API_KEY: undefined, PROVISIONER_NO_BLE: '1', CI: '1' } });

async function laptopWith(bytes: Uint8Array): Promise<{ home: string; file: string }> {
  const home = await mkdtemp(join(scratch.dir, 'laptop-'));
  const file = join(await mkdtemp(join(scratch.dir, 'stick-')), 'loader-7.provisioner-package');
  await writeFile(file, bytes);
  return { home, file };
}

describe('package import refusals in the run language', () => {
  it('says a laptop without a trusted root in German and Chinese, naming the service and the organization', async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld()).bytes);

    const german = await cli(home, ['--lang', 'de', 'package', 'import', file]);
    expect(german.code).toBe(1);
    expect(german.stderr).toBe(
      `error: Dieser Laptop war noch nie bei ${SERVICE_URL} angemeldet und hat daher keinen Stammschlüssel, um ein Paket der Organisation ${ORG_ID} von einer Fälschung zu unterscheiden. Geben Sie den Fingerabdruck des Stammschlüssels des Dienstes mit --root-fingerprint an: \`provisioner status\` zeigt ihn auf jedem Laptop, der beim Dienst angemeldet ist. Nichts wurde importiert\n`,
    );

    const chinese = await cli(home, ['--lang', 'zh', 'package', 'import', file]);
    expect(chinese.code).toBe(1);
    expect(chinese.stderr).toBe(
      `error: 本笔记本从未登录过 ${SERVICE_URL}，因此没有根密钥来辨别组织 ${ORG_ID} 的工作包是否伪造。请用 --root-fingerprint 给出服务根密钥的指纹：任何已登录该服务的笔记本上，\`provisioner status\` 都会显示它。未导入任何内容\n`,
    );

    // The same refusal in English is the core's own sentence.
    const english = await cli(home, ['--lang', 'en', 'package', 'import', file]);
    expect(english.stderr).toMatch(/^error: This laptop has never been signed in to /);
  });

  it("says another organization's package in German and Chinese, the organizations and addresses as they are", async () => {
    const { home, file } = await laptopWith(makePackage(packageWorld()).bytes);
    await cliLoginStore(resolveDataDirs({}, home)).save({
      serviceUrl: SERVICE_URL,
      orgId: 'other-org',
      apiKey: 'pk_other',
      keyName: 'other',
      role: 'Admin',
    });

    const german = await cli(home, ['--lang', 'de', 'package', 'import', file]);
    expect(german.code).toBe(1);
    expect(german.stderr).toBe(
      `error: Dieses Arbeitspaket gehört zur Organisation ${ORG_ID} bei ${SERVICE_URL}, dieser Arbeitsplatz arbeitet aber für die Organisation other-org bei ${SERVICE_URL}. Importieren Sie es auf einem Arbeitsplatz dieser Organisation (oder melden Sie sich dort an)\n`,
    );

    const chinese = await cli(home, ['--lang', 'zh', 'package', 'import', file]);
    expect(chinese.code).toBe(1);
    expect(chinese.stderr).toBe(
      `error: 此工作包属于 ${SERVICE_URL} 上的组织 ${ORG_ID}，但本工作站为 ${SERVICE_URL} 上的组织 other-org 工作。请在该组织的工作站上导入（或登录该组织）\n`,
    );
  });
});
