/**
 * scripts/cli-reference.ts on a small commander tree: the man page groff renders without a warning
 * and says what --help says, and the bash completion walks nested commands, options and their
 * values as bash calls it on TAB. The real programs' reference is installed and used in
 * debian-packages.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { bashCompletion, manPage, roffText, zshCompletion } from '../../scripts/cli-reference';

function sampleProgram(): Command {
  const program = new Command('gadget')
    .description('Tune gadgets: one at a time or all of them.\nSecond paragraph.')
    .option('--data-dir <dir>', 'keep state under DIR')
    .option('--json', 'machine-readable output');
  const device = program.command('device').description('Attached gadgets.');
  device
    .command('list')
    .description('List them.')
    .addOption(new Option('--link <spec>', 'also this link').env('GADGET_LINK'));
  const firmware = device.command('firmware').description('Firmware: download and update.');
  firmware
    .command('update')
    .argument('[serials...]', 'the gadgets to update')
    .option('--force', 'even when current')
    .description('Install the latest firmware — “safely”.');
  program.command('devour', { hidden: true }).description('Not for people.');
  return program;
}

const work = mkdtempSync(join(tmpdir(), 'cli-reference-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the man page', () => {
  it('escapes roff: hyphens, backslashes, a leading dot, non-ASCII', () => {
    expect(roffText('--a\\b\n.TH x\n→')).toBe('\\-\\-a\\eb\n\\&.TH x\n\\[u2192]');
  });

  it('renders without a warning and holds every visible command with its usage, options and their environment variables', () => {
    const file = join(work, 'gadget.1');
    writeFileSync(file, manPage(sampleProgram(), { version: '1.2.3', date: '2026-11-28', seeAlso: ['gadgetd(8)'] }));
    const rendered = spawnSync('man', ['--warnings', '-l', '-P', 'cat', file], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '200', LC_ALL: 'C.UTF-8' },
    });
    expect(rendered.status, rendered.stderr).toBe(0);
    expect(rendered.stderr).toBe('');
    const text = rendered.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('GADGET(1)');
    expect(text).toContain('NAME gadget - Tune gadgets');
    expect(text).toContain('gadget device firmware update [options] [serials...]');
    expect(text).toContain('Install the latest firmware — “safely”.');
    expect(text).toContain('--link <spec> also this link (env: GADGET_LINK)');
    expect(text).toContain('--data-dir <dir> keep state under DIR');
    expect(text).toContain('SEE ALSO gadgetd(8)');
    expect(text).not.toContain('devour');
  });
});

describe('bash completion', () => {
  const script = join(work, 'gadget.bash');
  writeFileSync(script, bashCompletion(sampleProgram()));

  /** COMPREPLY for the words typed so far (the last is the word at the cursor), as bash's TAB asks. */
  function complete(...words: string[]): string[] {
    const call = [
      `source ${script}`,
      `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=()`,
      '_gadget gadget "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', call], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.split('\n').filter(Boolean);
  }

  it('offers the commands that start with the word, hidden ones not', () => {
    expect(complete('gadget', 'dev')).toEqual(['device']);
    expect(complete('gadget', '')).toEqual(['device', 'help']);
  });

  it('follows nested commands past options and the value an option takes', () => {
    expect(complete('gadget', '--data-dir', 'device', 'device', 'f')).toEqual(['firmware']);
    expect(complete('gadget', 'device', 'firmware', 'up')).toEqual(['update']);
    expect(complete('gadget', '--data-dir=x', 'device', 'l')).toEqual(['list']);
  });

  it("offers a command's options and its ancestors', and nothing after an option that takes a value", () => {
    expect(complete('gadget', 'device', 'list', '--')).toEqual(['--data-dir', '--json', '--link', '--help']);
    expect(complete('gadget', 'device', 'list', '--link', '')).toEqual([]);
  });
});

describe.skipIf(spawnSync('zsh', ['--version']).error !== undefined)('zsh completion', () => {
  it('parses, and offers the nested commands with their summaries', () => {
    const file = join(work, '_gadget');
    writeFileSync(file, zshCompletion(sampleProgram()));
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
    // zsh's _describe and _files stand in as printers; the file's last line (the call) is left out.
    const call = [
      '_describe() { print -r -- "${(P)4}"; }',
      '_files() { print files; }',
      `eval "$(sed '$d' ${file})"`,
      'words=(gadget --data-dir x device firmware ""); CURRENT=6; _gadget',
      'words=(gadget device list --link ""); CURRENT=5; _gadget',
    ].join('\n');
    const result = spawnSync('zsh', ['-f', '-c', call], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('update:Install the latest firmware — “safely” help:display help for command\nfiles\n');
  });
});
