import { createInterface } from 'node:readline/promises';
import {
  FunctionTestRefusedError,
  type FunctionTestObservationView,
  type FunctionTestRefusal,
} from '../../../../contract/index';
import { functionTestReasonsText, reactionsText } from '../../../../domain/function-test-words';
import { cliLanguage, cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

export interface FunctionTestOptions {
  link?: string;
  /** The technician's verdict, given on the command line (else asked at a terminal, or left to what was observed). */
  result?: 'pass' | 'fail';
  note?: string;
  /** Seconds to wait for the press. */
  pressTimeout?: number;
}

/** How long the command line waits for the press when --press-timeout does not say. */
const PRESS_TIMEOUT_SECONDS = 120;

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
  const core = ctx.core();
  const technicianAtHand = interactive(ctx) && options.result === undefined;
  const stopSaying = core.subscribe('functionTest.ready', (ready) => {
    if (ready.serialNumber !== serialNumber) return;
    if (ctx.out.json) ctx.out.jsonLine({ event: 'ready', serialNumber, receivers: ready.receivers });
    else
      ctx.out.line(
        t('cli:functionTest.press', {
          serial: serialNumber,
          count: ready.receivers.length,
          receivers: ready.receivers.join(', '),
          name: ready.configurationName,
        }),
      );
  });
  let observed: FunctionTestObservationView;
  try {
    observed = await core.invoke('functionTest.observe', {
      serialNumber,
      pressTimeoutSeconds: options.pressTimeout ?? PRESS_TIMEOUT_SECONDS,
      ...(options.link ? { link: options.link } : {}),
      // A test not done is recorded with the technician's verdict and note too, as every other.
      recordNotDone: false,
    });
  } catch (error) {
    if (error instanceof FunctionTestRefusedError)
      throw new CliError(refusalText(error.refusal, serialNumber, account.label));
    throw error;
  } finally {
    stopSaying();
  }
  const observation = observed.observation!;

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
  const recorded = await core.invoke('functionTest.record', {
    observationId: observed.observationId,
    ...(technician ? { technician } : {}),
    note,
    language: cliLanguage(),
  });
  // The organization's chain got it now when the service answered; `ledger verify` sends it later otherwise.
  const sent = recorded.sentToService === true;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      event: 'result',
      serialNumber,
      result: recorded.result,
      reasons: recorded.reasons,
      observation,
      note,
      ledgerHash: recorded.ledgerHash,
      commissioning: recorded.commissioning.state,
      missingSteps: recorded.commissioning.missing,
      sentToService: sent,
    });
  } else {
    const reactions = observation.pressed ? reactionsText(observation, cliTranslator()) : '';
    ctx.out.line(
      t('cli:functionTest.result', {
        serial: serialNumber,
        result: recorded.result,
        pressed: observation.pressed ? 'yes' : 'no',
        reactions,
      }),
    );
    if (recorded.reasons.length > 0)
      ctx.out.line(
        `  ${t('cli:functionTest.why', { reasons: functionTestReasonsText(recorded.failReasons ?? [], cliTranslator()) })}`,
      );
    // English keeps the ledger core's own words; another language takes the report catalog's (the core says both).
    ctx.out.line(
      `  ${t('cli:functionTest.recorded', {
        serial: serialNumber,
        status: recorded.commissioningText ?? '',
        seq: recorded.ledgerSeq,
        hash: recorded.ledgerHash.slice(0, 16),
      })}`,
    );
    if (!sent) ctx.out.note(t('cli:functionTest.notSent'));
  }
  return recorded.result === 'pass' ? EXIT.ok : EXIT.failed;
}

/** Why the core would not watch the device, in the run's language. */
function refusalText(refusal: FunctionTestRefusal, serial: string, account: string): string {
  if (refusal === 'notRegistered') return t('cli:functionTest.notRegistered', { serial, account });
  if (refusal === 'noConfiguration') return t('cli:functionTest.noConfiguration', { serial });
  return t('cli:functionTest.notAttached', { serial });
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
  // The devices whose apply is the last thing this workstation's ledger says of them.
  const due = new Set(
    (await ctx.core().invoke('functionTest.due', { serialNumbers: [...serialNumbers] })).serialNumbers,
  );
  let code = updateCode;
  for (const serialNumber of serialNumbers) {
    if (!due.has(serialNumber)) continue;
    if (!/^y/i.test(await ask(t('cli:functionTest.offer', { serial: serialNumber })))) {
      ctx.out.note(t('cli:functionTest.notCommissionedUntil', { serial: serialNumber }));
      continue;
    }
    code = Math.max(code, await functionTest(ctx, serialNumber, {}));
  }
  return code;
}
