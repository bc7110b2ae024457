import { randomUUID } from 'node:crypto';
import type {
  AccountabilityChannel,
  CommissioningReportFileView,
  FunctionTestObservationView,
  FunctionTestRecordView,
} from '../../../contract/accountability';
import { CoreError } from '../../../contract/errors';
import { commissioningViewOf } from '../../../domain/ledger-commissioning';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import { toCoreError } from '../errors';
import {
  failReasonsOf,
  notDoneText,
  observeFunctionTest,
  recordFunctionTest,
  verdictOf,
  type FunctionTestDevice,
  type FunctionTestObservation,
} from '../../features/function-test';
import { sendLedger, type Ledger } from '../../engine/ledger';
import { LOCAL_WORKSPACE_SERVICE } from '../local-workspace';
import { makeCommissioningReport, renderReportPdf, ReportFontError, ReportRequestError } from '../../features/report';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

export interface AccountabilityHandlerDeps {
  session: AccountSession;
  ledger: Ledger;
  cache: FirmwareCache;
  workstation: () => Promise<string>;
  /** Where each attached device is: its link spec by serial number. */
  attached: () => { serialNumber: string | null; link: string }[];
  /**
   * The links a function test holds open while it watches: the device list must neither probe nor
   * drop them meanwhile, or the devices under test would leave the Workbench (and their Press E-stop) as they are watched.
   */
  watchedLinks?: Set<string>;
}

interface PendingTest {
  serialNumber: string;
  configurationName: string;
  syncId: string | null;
  observation: FunctionTestObservation;
}

/** Observations waiting for a verdict; a few at most (one dialog each), the oldest dropped. */
const MAX_PENDING = 16;

function serviceOf(account: { kind: 'local' | 'service'; serviceUrl: string }): string {
  return account.kind === 'local' ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl;
}

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'configuration';
}

/** The UI's side of `device function-test` and `report` (docs/ledger.md). */
export function accountabilityHandlers(deps: AccountabilityHandlerDeps): HandlerGroup<AccountabilityChannel> {
  const pending = new Map<string, PendingTest>();
  /** The watches running now, by the serial number of the device under test: Stop aborts one. */
  const watching = new Map<string, AbortController>();

  const recordTest = async (
    test: PendingTest,
    technician: 'pass' | 'fail' | undefined,
    note: string,
  ): Promise<FunctionTestRecordView> => {
    const account = deps.session.require('files.download');
    const verdict = verdictOf(test.observation, technician);
    const entry = await recordFunctionTest(deps.ledger, {
      serialNumber: test.serialNumber,
      workstation: await deps.workstation(),
      ...(account.keyName ? { actor: account.keyName } : {}),
      serviceUrl: serviceOf(account),
      orgId: account.orgId,
      observation: test.observation,
      verdict,
      note,
      syncId: test.syncId,
      configurationName: test.configurationName,
      at: new Date(),
    });
    // The organization's chain gets it when the service answers; `ledger verify` sends it later otherwise.
    void sendLedger(deps.ledger, {
      client: account.client,
      serviceUrl: serviceOf(account),
      orgId: account.orgId,
    }).catch(() => undefined);
    const entries = await deps.ledger.entries();
    return {
      serialNumber: test.serialNumber,
      result: verdict.result,
      reasons: verdict.reasons,
      failReasons: failReasonsOf(test.observation, technician),
      note,
      commissioning: commissioningViewOf(entries, test.serialNumber),
      ledgerSeq: entry.seq,
      ledgerHash: entry.hash,
    };
  };

  return {
    'functionTest.observe': async (input): Promise<FunctionTestObservationView> => {
      const account = deps.session.require('files.download');
      try {
        const record = (await account.client.devices.list({ serial: input.serialNumber })).items.find(
          (d) => d.serialNumber === input.serialNumber,
        );
        if (!record?.configurationId)
          throw new CoreError(
            'VALIDATION',
            `${input.serialNumber} is in no configuration, so there is no safety function to test: apply a configuration first.`,
          );
        const configuration = await account.client.configurations.get(record.configurationId);
        const linkOf = (serial: string) => deps.attached().find((d) => d.serialNumber === serial)?.link;
        const link = linkOf(input.serialNumber);
        if (!link)
          throw new CoreError(
            'DEVICE_ERROR',
            `${input.serialNumber} is not attached (or not answering): attach it and try again.`,
          );
        const receivers: FunctionTestDevice[] = [];
        const notAttached: string[] = [];
        for (const { serialNumber } of configuration.devices) {
          if (serialNumber === input.serialNumber) continue;
          const receiverLink = linkOf(serialNumber);
          if (receiverLink) receivers.push({ serialNumber, link: receiverLink });
          else notAttached.push(serialNumber);
        }
        if (watching.has(input.serialNumber))
          throw new CoreError(
            'VALIDATION',
            `${input.serialNumber} is being watched for its function test already: finish or stop that one first.`,
          );
        const stop = new AbortController();
        watching.set(input.serialNumber, stop);
        const held = [link, ...receivers.map((r) => r.link)];
        for (const each of held) deps.watchedLinks?.add(each);
        let observation: FunctionTestObservation;
        try {
          observation = await observeFunctionTest({ serialNumber: input.serialNumber, link }, receivers, {
            pressTimeoutMs: input.pressTimeoutSeconds * 1000,
            signal: stop.signal,
          });
        } finally {
          watching.delete(input.serialNumber);
          for (const each of held) deps.watchedLinks?.delete(each);
        }
        for (const serialNumber of notAttached)
          observation.unreachable.push({ serialNumber, reason: 'not attached to this computer' });
        const test: PendingTest = {
          serialNumber: input.serialNumber,
          configurationName: configuration.name,
          syncId: record.deployedSyncId,
          observation,
        };
        const notDone = notDoneText(observation);
        // A test that was not done has no verdict to wait for: it is kept as a failure now, so the
        // ledger says the device was not tested rather than nothing at all.
        const recorded = notDone ? await recordTest(test, undefined, '') : null;
        const observationId = randomUUID();
        if (!recorded) {
          pending.set(observationId, test);
          if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
        }
        return {
          notDone,
          recorded,
          observationId,
          serialNumber: input.serialNumber,
          configurationName: configuration.name,
          pressed: observation.pressed,
          receivers: observation.receivers.map((r) => ({
            serialNumber: r.serialNumber,
            tripped: r.tripped,
            reactionMs: r.reactionMs,
          })),
          unreachable: observation.unreachable,
          failsBecause: verdictOf(observation, undefined).reasons,
          failReasons: failReasonsOf(observation, undefined),
        };
      } catch (error) {
        throw toCoreError(error);
      }
    },
    'functionTest.stop': async (input) => {
      const running = watching.get(input.serialNumber);
      running?.abort();
      return { stopped: running !== undefined };
    },
    'functionTest.record': async (input) => {
      deps.session.require('files.download');
      const test = pending.get(input.observationId);
      if (!test)
        throw new CoreError(
          'VALIDATION',
          'This function test is no longer open (Provisioner restarted, or it was recorded already): run it again.',
        );
      pending.delete(input.observationId);
      return recordTest(test, input.technician, input.note);
    },
    'reports.commissioning': async (input): Promise<CommissioningReportFileView> => {
      const account = deps.session.require();
      try {
        const report = await makeCommissioningReport(
          {
            client: account.client,
            ledger: deps.ledger,
            cache: deps.cache,
            workstation: await deps.workstation(),
            service:
              account.kind === 'local'
                ? 'the local workspace'
                : `organization ${account.orgId} at ${account.serviceUrl}`,
            orgId: account.orgId,
          },
          {
            configurationId: input.configurationId,
            ...(input.serialNumber ? { deviceSerial: input.serialNumber } : {}),
          },
        );
        const bytes =
          input.format === 'pdf'
            ? await renderReportPdf(report, { language: input.language ?? 'en' })
            : new TextEncoder().encode(`${JSON.stringify(report, null, 2)}\n`);
        const day = report.generatedAt.slice(0, 10);
        return {
          fileName: `${safeFileName(report.configuration.name)}${input.serialNumber ? `-${safeFileName(input.serialNumber)}` : ''}-commissioning-${day}.${input.format}`,
          contentBase64: Buffer.from(bytes).toString('base64'),
          mediaType: input.format === 'pdf' ? 'application/pdf' : 'application/json',
          configurationName: report.configuration.name,
          deviceCount: report.devices.length,
          commissionedCount: report.devices.filter((d) => d.commissioning === 'commissioned').length,
          ledgerIntact: report.ledger.intact,
        };
      } catch (error) {
        if (error instanceof ReportRequestError) throw new CoreError('VALIDATION', error.message);
        // A machine without the CJK font a Chinese report needs: said with how to install it.
        if (error instanceof ReportFontError) throw new CoreError('INTERNAL', error.message);
        throw toCoreError(error);
      }
    },
  };
}
