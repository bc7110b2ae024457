import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkstationLedger } from '../../../../main/engine/ledger';
import { workstationId } from '../../../../main/engine/jobs/workstation';
import { ledgerProgressView } from '../../../../main/hosts/cli/ledger-progress';
import { Output } from '../../../../main/hosts/cli/output';
import type { CliIo } from '../../../../main/hosts/cli/io';
import { runCliIn } from '../../../fixtures/cli-in-process';

/**
 * Issue 30: `ledger verify` on a long ledger says how far it is: JSON progress events on stderr with
 * --json (stdout stays the one result object), a line rewritten in place at a terminal.
 */

const ENTRIES = 250;
let home = '';

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ledger-progress-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** A ledger of `count` entries written by this data directory's own ledger, as jobs write them. */
async function writeLedger(count: number): Promise<void> {
  const dataDir = join(home, 'data');
  const ledger = openWorkstationLedger(dataDir);
  const workstation = await workstationId(dataDir);
  for (let i = 1; i <= count; i += 1) {
    const serial = `EPC${String(i).padStart(6, '0')}`;
    await ledger.append({
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      action: 'verify',
      outcome: 'success',
      serialNumber: serial,
      workstation,
      facts: {},
    });
  }
}

interface ProgressEvent {
  event: string;
  stage: string;
  checked?: number;
  total?: number;
}

describe('provisioner ledger verify shows its progress', () => {
  it('--json: progress events on stderr, rising to every line checked, once per percent; stdout is the result alone', async () => {
    await writeLedger(ENTRIES);
    const run = await runCliIn(home, ['--json', 'ledger', 'verify', '--local']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, local: { ok: true, entries: ENTRIES } });
    const events = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ProgressEvent)
      .filter((e) => e.event === 'progress');
    expect(events[0]).toEqual({ event: 'progress', stage: 'read' });
    const local = events.filter((e) => e.stage === 'local');
    expect(local.every((e) => e.total === ENTRIES)).toBe(true);
    const checked = local.map((e) => e.checked!);
    expect(checked).toEqual([...checked].sort((a, b) => a - b));
    expect(checked[0]).toBe(0);
    expect(checked.at(-1)).toBe(ENTRIES);
    // One event per percent at most (and the first line): not one per entry.
    expect(local.length).toBeLessThanOrEqual(101);
    expect(local.length).toBeGreaterThan(50);
  });

  it('without --json and not at a terminal: only the result, no progress', async () => {
    await writeLedger(20);
    const run = await runCliIn(home, ['ledger', 'verify', '--local']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('20 entries, every link holds');
    expect(run.stderr).not.toMatch(/Checking the local ledger/);
  });

  it('at a terminal: one line on stderr rewritten in place, cleared before the result', () => {
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    let written = '';
    stderr.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    const io = { stdout: new PassThrough(), stderr, env: {} } as unknown as CliIo;
    const view = ledgerProgressView(new Output(io, 'tty'));
    view.onProgress({ stage: 'read' });
    for (let checked = 0; checked <= 1000; checked += 1) view.onProgress({ stage: 'local', checked, total: 1000 });
    view.close();
    const frames = written.split('\r\u001b[2K').filter((frame) => frame.length > 0);
    expect(frames[0]).toBe('Reading the local ledger…');
    expect(frames[1]).toBe('Checking the local ledger: 0 of 1,000 lines (0%)');
    expect(frames.at(-1)).toBe('Checking the local ledger: 1,000 of 1,000 lines (100%)');
    expect(frames).toHaveLength(102);
    expect(written.endsWith('\r\u001b[2K')).toBe(true);
    expect(written).not.toContain('\n');
  });
});
