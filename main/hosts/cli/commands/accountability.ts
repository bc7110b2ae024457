import { InvalidArgumentError, type Command } from 'commander';
import type { Runner } from '../program';
import { functionTest, type FunctionTestOptions } from './function-test';
import { ledgerEnrol, ledgerRevoke, ledgerVerify } from './ledger';
import { report, type ReportOptions } from './report';

function seconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError(`"${text}" is not a whole number of seconds of at least 1.`);
  return value;
}

/** `--entry HASH`, repeatable: each a full entry hash, as the commissioning report's appendix prints it. */
function entryHashes(text: string, previous: string[] = []): string[] {
  const hash = text.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new InvalidArgumentError(`"${text}" is not a ledger entry hash; give its 64 hex digits, as the commissioning report's appendix prints them.`);
  return [...previous, hash];
}

function result(text: string): 'pass' | 'fail' {
  if (text !== 'pass' && text !== 'fail') throw new InvalidArgumentError(`"${text}" is not a result; give pass or fail.`);
  return text;
}

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
    .option('--entry <hash>', 'also say whether the entry of this hash (from a commissioning report) is in the local ledger with its link intact; repeatable; exits 1 when one is not', entryHashes)
    .action((options: { local?: boolean; entry?: string[] }) => runner((ctx) => ledgerVerify(ctx, options)));
  ledger
    .command('enrol')
    .description("Enrol this workstation's ledger key with the service you are logged in to (sending entries does so too): the service then takes this workstation's entries only from this key.")
    .option('--rotate', "replace the key enrolled for this workstation by the one it has now (Admin only); the old key's later entries fail verify")
    .action((options: { rotate?: boolean }) => runner((ctx) => ledgerEnrol(ctx, options)));
  ledger
    .command('revoke')
    .description("Revoke a workstation's enrolled key (Admin only): the service refuses its later entries and verify names them, with the reason.")
    .argument('<workstation>', 'the workstation id, as its entries name it')
    .requiredOption('--reason <text>', 'why (kept with the key and shown by verify)')
    .action((workstation: string, options: { reason: string }) => runner((ctx) => ledgerRevoke(ctx, workstation, options)));

  const device = program.commands.find((command) => command.name() === 'device');
  if (!device) throw new Error('The device command must exist before the function test is added to it.');
  device
    .command('function-test')
    .description(
      "Test the safety function after a configuration apply: press the device's E-stop while Provisioner watches it and the receivers of its configuration; " +
        'records the result, the reaction time it observed and a note in the ledger. A failed test leaves the device not commissioned.',
    )
    .argument('<serialNumber>')
    .option('--link <link>', 'where the device is attached, when discovery does not find it: serial:/dev/ttyACM0[@BAUD], udp:HOST[:PORT], ble:ADDRESS')
    .option('--result <result>', "the technician's verdict without asking (pass or fail); a press not seen or a receiver that did not trip fails whatever it says", result)
    .option('--note <text>', 'a note kept with the result')
    .option('--press-timeout <seconds>', 'how long to wait for the press (default 120)', seconds)
    .action((serialNumber: string, options: FunctionTestOptions) => runner((ctx) => functionTest(ctx, serialNumber, options)));

  program
    .command('report')
    .description(
      'The commissioning report of a configuration (or one device of it): per device its type and model, firmware, image SHA-256 and signer, syncId, ' +
        'who applied it when and where, the function test, and the ledger hashes; the safety parameters in words.',
    )
    .requiredOption('--configuration <name>', 'the configuration, by name')
    .option('--device <serialNumber>', 'only this device of the configuration')
    .option('--out <file>', 'write it here: FILE.pdf or FILE.json')
    .action((options: ReportOptions) => runner((ctx) => report(ctx, options)));
}
