import { createInterface } from 'node:readline/promises';
import { commissioningOf, commissioningText } from '../../../../domain/ledger-commissioning';
import { describeReactions, observeFunctionTest, recordFunctionTest, verdictOf, type FunctionTestDevice, type FunctionTestResult } from '../../../app/function-test';
import { openWorkstationLedger, sendLedger } from '../../../app/ledger';
import { workstationId } from '../../../app/jobs/workstation';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

export interface FunctionTestOptions {
  link?: string;
  result?: FunctionTestResult;
  note?: string;
  /** Seconds to wait for the press. */
  pressTimeout?: number;
}

/** Whether a person is at the terminal to answer (not a script, not --json). */
export function interactive(ctx: CliContext): boolean {
  return !ctx.out.json && process.stdin.isTTY === true && ctx.io.stderr.isTTY === true && !ctx.io.env.CI;
}

/** One answer from the person at the terminal (the prompt on stderr). */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/**
 * `device function-test SERIAL`: the test of the safety function after an apply. Watches the device
 * and the other devices of its configuration, asks for a press of its E-stop, records what it saw
 * (reaction time per receiver) and the technician's verdict and note in the ledger, and says
 * whether the device is commissioned. A failed test exits 1 and is kept.
 */
export async function functionTest(ctx: CliContext, serialNumber: string, options: FunctionTestOptions): Promise<number> {
  const account = await ctx.account();
  const record = (await account.client.devices.list({ serial: serialNumber })).items.find((d) => d.serialNumber === serialNumber);
  if (!record) throw new CliError(`${serialNumber} is not registered in ${account.label}; register it and apply its configuration first`);
  if (!record.configurationId) throw new CliError(`${serialNumber} is in no configuration, so there is no safety function to test; add it to one and apply it first`);
  const configuration = await account.client.configurations.get(record.configurationId);
  const others = configuration.devices.map((d) => d.serialNumber).filter((serial) => serial !== serialNumber);

  const attached = options.link ? [] : await ctx.finder().list();
  const linkOf = (serial: string) => attached.find((a) => a.identity?.serialNumber === serial)?.link;
  const deviceLink = options.link ?? linkOf(serialNumber);
  if (!deviceLink) throw new CliError(`${serialNumber} is not attached (or not answering); attach it, or name where it is with --link serial:/dev/ttyACM0, udp:HOST or ble:ADDRESS`);
  const receivers: FunctionTestDevice[] = [];
  const notAttached: string[] = [];
  for (const serial of others) {
    const link = linkOf(serial);
    if (link) receivers.push({ serialNumber: serial, link });
    else notAttached.push(serial);
  }

  const technicianAtHand = interactive(ctx) && options.result === undefined;
  const observation = await observeFunctionTest({ serialNumber, link: deviceLink }, receivers, {
    // The run's BLE central too: a device reached over BLE is watched through the same radio that found it.
    linkDeps: ctx.linkDeps(),
    ...(options.pressTimeout !== undefined ? { pressTimeoutMs: options.pressTimeout * 1000 } : {}),
    onReady: () => {
      const watching = receivers.length > 0 ? `its receivers ${receivers.map((r) => r.serialNumber).join(', ')}` : 'no receivers';
      if (ctx.out.json) ctx.out.jsonLine({ event: 'ready', serialNumber, receivers: receivers.map((r) => r.serialNumber) });
      else ctx.out.line(`Press the E-stop on ${serialNumber} now (watching ${watching} of configuration "${configuration.name}").`);
    },
  });
  for (const serial of notAttached) observation.unreachable.push({ serialNumber: serial, reason: 'not attached to this computer' });

  let technician = options.result;
  let note = options.note ?? '';
  if (technicianAtHand) {
    ctx.out.line(observation.pressed ? `Seen: press; ${describeReactions(observation)}.` : 'No press of the E-stop was seen.');
    technician = /^y/i.test(await ask('Did the machine stop safely (every receiver output off)? [y/n] ')) ? 'pass' : 'fail';
    note = options.note ?? (await ask('Note (optional): '));
  }
  const verdict = verdictOf(observation, technician);
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  const entry = await recordFunctionTest(ledger, {
    serialNumber,
    workstation: await workstationId(ctx.dirs.data),
    serviceUrl: account.serviceUrl,
    orgId: account.orgId,
    observation,
    verdict,
    note,
    syncId: record.deployedSyncId,
    configurationName: configuration.name,
    at: new Date(),
  });
  // The organization's chain gets it now when the service answers; `ledger verify` sends it later otherwise.
  const sent = await sendLedger(ledger, account).then(
    () => true,
    () => false,
  );
  const commissioning = commissioningOf(
    await ledger.entries(),
    serialNumber,
  );
  if (ctx.out.json) {
    ctx.out.jsonLine({ event: 'result', serialNumber, result: verdict.result, reasons: verdict.reasons, observation, note, ledgerHash: entry.hash, commissioning: commissioning.state, missingSteps: commissioning.missing, sentToService: sent });
  } else {
    ctx.out.line(`${serialNumber}: function test ${verdict.result === 'pass' ? 'PASSED' : 'FAILED'}: ${observation.pressed ? describeReactions(observation) : 'no press seen'}.`);
    if (verdict.reasons.length > 0) ctx.out.line(`  why: ${verdict.reasons.join('; ')}`);
    ctx.out.line(`  ${serialNumber} is ${commissioningText(commissioning)}. Recorded in the ledger (entry ${entry.seq}, ${entry.hash.slice(0, 16)}…).`);
    if (!sent) ctx.out.note('the service could not be reached; the test reaches it with the next "provisioner ledger verify"');
  }
  return verdict.result === 'pass' ? EXIT.ok : EXIT.failed;
}

/**
 * After `device configuration update` at a terminal: offers the function test of each device whose
 * apply was just recorded in the ledger. Returns the worse of `updateCode` and the tests' codes, so
 * a failed test fails the command. A script (no terminal, --json) is never asked.
 */
export async function offerFunctionTests(ctx: CliContext, serialNumbers: readonly string[], updateCode: number): Promise<number> {
  if (!interactive(ctx)) return updateCode;
  const entries = await openWorkstationLedger(ctx.dirs.data).entries();
  let code = updateCode;
  for (const serialNumber of serialNumbers) {
    const last = entries.findLast((entry) => entry.serialNumber === serialNumber);
    if (last?.action !== 'configuration-apply' || last.outcome !== 'success') continue;
    if (!/^y/i.test(await ask(`Test the safety function of ${serialNumber} now (you press its E-stop)? [y/N] `))) {
      ctx.out.note(`${serialNumber} is not commissioned until its function test passes: provisioner device function-test ${serialNumber}`);
      continue;
    }
    code = Math.max(code, await functionTest(ctx, serialNumber, {}));
  }
  return code;
}
