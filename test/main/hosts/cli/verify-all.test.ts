import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/**
 * `device verify --all` and `device verify --all --parameters` with nothing attached (issue 27:
 * the devices are listed by the core's `readback.attached`): the command says so and fails before
 * it settles an account, so no local workspace is opened and nothing is written to the ledger.
 * No serial port matches the run's glob and BLE is off, so the listing finds nothing.
 */

const scratch = useScratchDirPerTest('verify-all');

const env = () => ({
  PATH: process.env.PATH,
  PROVISIONER_NO_BLE: '1',
  PROVISIONER_PORTS: join(scratch.dir, 'no-such-port-*'),
});

describe('device verify --all with nothing attached', () => {
  it.each([[['device', 'verify', '--all']], [['device', 'verify', '--all', '--parameters']]])(
    '%j says that no device was found and settles no account',
    async (args) => {
      const home = join(scratch.dir, 'home');
      const run = await runCliIn(home, args, { env: env() });
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stderr).toContain('--all: no attached devices found; check the cables, or name devices with --link');
      expect(run.stdout).toBe('');
      expect(existsSync(join(home, 'data', 'local-workspace'))).toBe(false);
    },
  );
});
