import { InvalidArgumentError, type Command } from 'commander';
import type { Runner } from '../context';
import { functionTest, type FunctionTestOptions } from './function-test';
import { t } from '../cli-language';
import { ledgerEnrol, ledgerRevoke, ledgerVerify } from './ledger';
import { report, type ReportOptions } from './report';

function seconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError(t('cli:args.seconds', { text }));
  return value;
}

/** `--entry HASH`, repeatable: each a full entry hash, as the commissioning report's appendix prints it. */
function entryHashes(text: string, previous: string[] = []): string[] {
  const hash = text.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new InvalidArgumentError(t('cli:args.entryHash', { text }));
  return [...previous, hash];
}

function result(text: string): 'pass' | 'fail' {
  if (text !== 'pass' && text !== 'fail') throw new InvalidArgumentError(t('cli:args.result', { text }));
  return text;
}

/**
 * The commands that prove what was done: the ledger's check, the function test after an apply and
 * the commissioning report. Kept here so the command tree (program.ts) gains one line for them.
 */
export function addAccountabilityCommands(program: Command, runner: Runner): void {
  const ledger = program.command('ledger').description(t('cli:help.ledger'));
  ledger
    .command('verify')
    .description(t('cli:help.ledger.verify'))
    .option('--local', t('cli:help.ledger.local'))
    .option('--entry <hash>', t('cli:help.ledger.entry'), entryHashes)
    .action((options: { local?: boolean; entry?: string[] }) => runner((ctx) => ledgerVerify(ctx, options)));
  ledger
    .command('enrol')
    .description(t('cli:help.ledger.enrol'))
    .option('--rotate', t('cli:help.ledger.rotate'))
    .action((options: { rotate?: boolean }) => runner((ctx) => ledgerEnrol(ctx, options)));
  ledger
    .command('revoke')
    .description(t('cli:help.ledger.revoke'))
    .argument('<workstation>', t('cli:help.ledger.workstation'))
    .requiredOption('--reason <text>', t('cli:help.ledger.reason'))
    .action((workstation: string, options: { reason: string }) =>
      runner((ctx) => ledgerRevoke(ctx, workstation, options)),
    );

  const device = program.commands.find((command) => command.name() === 'device');
  if (!device) throw new Error('The device command must exist before the function test is added to it.');
  device
    .command('function-test')
    .description(t('cli:help.functionTest'))
    .argument('<serialNumber>')
    .option('--link <link>', t('cli:help.functionTest.link'))
    .option('--result <result>', t('cli:help.functionTest.result'), result)
    .option('--note <text>', t('cli:help.functionTest.note'))
    .option('--press-timeout <seconds>', t('cli:help.functionTest.pressTimeout'), seconds)
    .action((serialNumber: string, options: FunctionTestOptions) =>
      runner((ctx) => functionTest(ctx, serialNumber, options)),
    );

  program
    .command('report')
    .description(t('cli:help.report'))
    .requiredOption('--configuration <name>', t('cli:help.report.configuration'))
    .option('--device <serialNumber>', t('cli:help.report.device'))
    .option('--out <file>', t('cli:help.report.out'))
    .action((options: ReportOptions) => runner((ctx) => report(ctx, options)));
}
