import { createInterface } from 'node:readline/promises';
import { commissioningOf, commissioningText } from '../../../../domain/ledger-commissioning';
import { functionTestReasonsText, reactionsText } from '../../../../domain/function-test-words';
import {
  failReasonsOf,
  observeFunctionTest,
  recordFunctionTest,
  verdictOf,
  type FunctionTestDevice,
  type FunctionTestResult,
} from '../../../features/function-test';
import { openWorkstationLedger, sendLedger } from '../../../engine/ledger';
import { workstationId } from '../../../engine/jobs/workstation';
import { cliLanguage, cliTranslator, t } from '../cli-language';
import { commissioningStatusText } from '../../../features/report/report-words';
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
export async function functionTest(
  ctx: CliContext,
  serialNumber: string,
  options: FunctionTestOptions,
): Promise<number> {
  const account = await ctx.account();
  const record = (await account.client.devices.list({ serial: serialNumber })).items.find(
    (d) => d.serialNumber === serialNumber,
  );
  if (!record)
    throw new CliError(t('cli:functionTest.notRegistered', { serial: serialNumber, account: account.label }));
  if (!record.configurationId) throw new CliError(t('cli:functionTest.noConfiguration', { serial: serialNumber }));
  const configuration = await account.client.configurations.get(record.configurationId);
  const others = configuration.devices.map((d) => d.serialNumber).filter((serial) => serial !== serialNumber);

  const attached = options.link ? [] : await ctx.finder().list();
  const linkOf = (serial: string) => attached.find((a) => a.identity?.serialNumber === serial)?.link;
  const deviceLink = options.link ?? linkOf(serialNumber);
  if (!deviceLink) throw new CliError(t('cli:functionTest.notAttached', { serial: serialNumber }));
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
      if (ctx.out.json)
        ctx.out.jsonLine({ event: 'ready', serialNumber, receivers: receivers.map((r) => r.serialNumber) });
      else
        ctx.out.line(
          t('cli:functionTest.press', {
            serial: serialNumber,
            count: receivers.length,
            receivers: receivers.map((r) => r.serialNumber).join(', '),
            name: configuration.name,
          }),
        );
    },
  });
  for (const serial of notAttached)
    observation.unreachable.push({ serialNumber: serial, reason: 'not attached to this computer' });

  let technician = options.result;
  let note = options.note ?? '';
  if (technicianAtHand) {
    ctx.out.line(
      observation.pressed
        ? t('cli:functionTest.seen', { reactions: reactionsText(observation, cliTranslator()) })
        : t('cli:functionTest.noPress'),
    );
    technician = /^y/i.test(await ask(t('cli:functionTest.askStopped'))) ? 'pass' : 'fail';
    note = options.note ?? (await ask(t('cli:functionTest.askNote')));
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
  const commissioning = commissioningOf(await ledger.entries(), serialNumber);
  if (ctx.out.json) {
    ctx.out.jsonLine({
      event: 'result',
      serialNumber,
      result: verdict.result,
      reasons: verdict.reasons,
      observation,
      note,
      ledgerHash: entry.hash,
      commissioning: commissioning.state,
      missingSteps: commissioning.missing,
      sentToService: sent,
    });
  } else {
    const reactions = observation.pressed ? reactionsText(observation, cliTranslator()) : '';
    ctx.out.line(
      t('cli:functionTest.result', {
        serial: serialNumber,
        result: verdict.result,
        pressed: observation.pressed ? 'yes' : 'no',
        reactions,
      }),
    );
    if (verdict.reasons.length > 0)
      ctx.out.line(
        `  ${t('cli:functionTest.why', { reasons: functionTestReasonsText(failReasonsOf(observation, technician), cliTranslator()) })}`,
      );
    // English keeps the ledger core's own words; another language takes the report catalog's.
    const status =
      cliLanguage() === 'en'
        ? commissioningText(commissioning)
        : commissioningStatusText(commissioning.state, commissioning.missing, cliTranslator());
    ctx.out.line(
      `  ${t('cli:functionTest.recorded', { serial: serialNumber, status, seq: entry.seq, hash: entry.hash.slice(0, 16) })}`,
    );
    if (!sent) ctx.out.note(t('cli:functionTest.notSent'));
  }
  return verdict.result === 'pass' ? EXIT.ok : EXIT.failed;
}

/**
 * After `device configuration update` at a terminal: offers the function test of each device whose
 * apply was just recorded in the ledger. Returns the worse of `updateCode` and the tests' codes, so
 * a failed test fails the command. A script (no terminal, --json) is never asked.
 */
export async function offerFunctionTests(
  ctx: CliContext,
  serialNumbers: readonly string[],
  updateCode: number,
): Promise<number> {
  if (!interactive(ctx)) return updateCode;
  const entries = await openWorkstationLedger(ctx.dirs.data).entries();
  let code = updateCode;
  for (const serialNumber of serialNumbers) {
    const last = entries.findLast((entry) => entry.serialNumber === serialNumber);
    if (last?.action !== 'configuration-apply' || last.outcome !== 'success') continue;
    if (!/^y/i.test(await ask(t('cli:functionTest.offer', { serial: serialNumber })))) {
      ctx.out.note(t('cli:functionTest.notCommissionedUntil', { serial: serialNumber }));
      continue;
    }
    code = Math.max(code, await functionTest(ctx, serialNumber, {}));
  }
  return code;
}
