import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkstationLedger } from '../../../../main/engine/ledger';
import { workstationId } from '../../../../main/engine/jobs/workstation';
import { useScratchDir } from '../../../fixtures/scratch';
import { runCliIn } from '../../../fixtures/cli-in-process';

/**
 * A broken ledger link in the technician's language (issue 29): the ledger's check names the fault
 * as a code with its values, and `ledger verify` says where and why in the run's language; the
 * English is the core's reason, and `--json` carries it unchanged in every language.
 */

const scratch = useScratchDir('cli-ledger-broken-link-language');

const cli = (home: string, args: readonly string[]) =>
  runCliIn(home, args, { env: { ...process.env, PROVISIONER_API_KEY: undefined, PROVISIONER_NO_BLE: '1', CI: '1' } });

/** A ledger of three entries written as the CLI writes it, then one byte of the second entry's content changed. */
async function ledgerWithChangedEntry(home: string): Promise<{ hash: string }> {
  const data = join(home, 'data');
  const ledger = openWorkstationLedger(data);
  const workstation = await workstationId(data);
  const appended = [];
  for (const serial of ['EPC000101', 'EPC000102', 'EPC000103'])
    appended.push(
      await ledger.append({
        at: new Date().toISOString(),
        action: 'function-test',
        outcome: 'success',
        serialNumber: serial,
        workstation,
        facts: { result: 'pass' },
      }),
    );
  const path = join(data, 'ledger', 'ledger.jsonl');
  const text = await readFile(path, 'utf8');
  // The second entry now names another device; its hash no longer matches its content.
  await writeFile(path, text.replace('"EPC000102"', '"EPC000109"'));
  return { hash: appended[1]!.hash };
}

describe('ledger verify: a broken link in the run language', () => {
  it('names the changed entry in German, its line, number and hash as they are', async () => {
    const home = await mkdtemp(join(scratch.dir, 'changed-'));
    const { hash } = await ledgerWithChangedEntry(home);

    const english = await cli(home, ['ledger', 'verify', '--local']);
    expect(english.code).toBe(1);
    expect(english.stdout).toContain(
      `BROKEN at entry 2 at line 2 (hash ${hash.slice(0, 12)}…): its content does not match its hash (it was changed after it was written).`,
    );

    const german = await cli(home, ['--lang', 'de', 'ledger', 'verify', '--local']);
    expect(german.code).toBe(1);
    expect(german.stdout).toContain(
      `Eintrag 2 in Zeile 2 (Hash ${hash.slice(0, 12)}…): sein Inhalt passt nicht zu seinem Hash (er wurde nach dem Schreiben verändert)`,
    );
    expect(german.stdout).not.toMatch(/its content|at line/);

    // --json is the same bytes in every language: the English reason and the fault as a code.
    const json = await cli(home, ['--json', 'ledger', 'verify', '--local']);
    const jsonGerman = await cli(home, ['--json', '--lang', 'de', 'ledger', 'verify', '--local']);
    expect(jsonGerman.stdout).toBe(json.stdout);
    expect(JSON.parse(json.stdout).local.broken).toMatchObject({
      line: 2,
      seq: 2,
      reason: 'its content does not match its hash (it was changed after it was written)',
      why: { kind: 'contentNotHash' },
    });
  });

  it('names a line that is not an entry in German', async () => {
    const home = await mkdtemp(join(scratch.dir, 'not-json-'));
    await ledgerWithChangedEntry(home);
    const path = join(home, 'data', 'ledger', 'ledger.jsonl');
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    // The first line is no entry at all: the check stops there.
    await writeFile(path, `not json\n${lines.slice(1).join('\n')}\n`);
    const german = await cli(home, ['--lang', 'de', 'ledger', 'verify', '--local']);
    expect(german.code).toBe(1);
    expect(german.stdout).toContain('Zeile 1: sie ist kein gültiges JSON');
  });
});
