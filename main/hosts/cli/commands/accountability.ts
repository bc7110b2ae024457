import type { Command } from 'commander';
import type { Runner } from '../program';
import { ledgerVerify } from './ledger';

/**
 * The commands that prove what was done: the ledger's check, the function test after an apply and
 * the commissioning report. Kept here so the command tree (program.ts) gains one line for them.
 */
export function addAccountabilityCommands(program: Command, runner: Runner): void {
  const ledger = program.command('ledger').description("This workstation's tamper-evident record of every provisioning action.");
  ledger
    .command('verify')
    .description("Check every link of the local ledger and of the organization's chain on the service (sending it the entries it lacks), and name the first broken one.")
    .option('--local', 'check only the local ledger; do not reach the service')
    .action((options: { local?: boolean }) => runner((ctx) => ledgerVerify(ctx, options)));
}
