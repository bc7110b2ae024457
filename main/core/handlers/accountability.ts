import { randomUUID } from 'node:crypto';
import {
  FunctionTestRefusedError,
  type AccountabilityChannel,
  type CommissioningReportFileView,
  type FunctionTestObservationView,
  type FunctionTestReadyView,
  type FunctionTestRecordView,
} from '../../../contract/accountability';
import type { Capability } from '../../../contract/index';
import { CoreError } from '../../../contract/errors';
import { createTranslator } from '../../../domain/i18n/index.js';
import type { CatalogLanguage } from '../../../domain/i18n/languages';
import { commissioningText, commissioningViewOf } from '../../../domain/ledger-commissioning';
import type { ServiceClient } from '../../cloud';
import type { LinkFactoryDeps } from '../../devices';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
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
import { commissioningStatusText } from '../../features/report/report-words';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

/** The account a test is recorded for and a report made from, as the host settled it. */
export interface AccountabilityAccount {
  client: ServiceClient;
  /** As the ledger files it: the local workspace's own name for the local workspace. */
  serviceUrl: string;
  orgId: string;
  /** Who is signed in (the API key's name): the ledger entry's actor, when the host knows it. */
  actor?: string;
  /** For people, in the report: "organization demo at https://…" or "the local workspace". */
  label: string;
}

export interface AccountabilityHandlerDeps {
  /**
   * The account, for what a capability allows: the app asks its session (which refuses a role
   * without it), the command line settles its one account.
   */
  account: (capability?: Capability) => Promise<AccountabilityAccount>;
  ledger: () => Ledger;
  cache: () => FirmwareCache;
  workstation: () => Promise<string>;
  /** Where each attached device is: its link spec by serial number. */
  attached: () => Promise<{ serialNumber: string | null; link: string }[]>;
  /**
   * The links a function test holds open while it watches: the device list must neither probe nor
   * drop them meanwhile, or the devices under test would leave the Workbench (and their Press E-stop) as they are watched.
   */
  watchedLinks?: Set<string>;
  /** How a watch opens its links (the command line's tests' link factories, its BLE central). */
  linkDeps?: LinkFactoryDeps;
  /** Whether the host may name the device's link itself (`device function-test --link`); the app's renderer names only devices the Workbench lists. */
  namedLinks?: boolean;
  /** Whether a test may be recorded on what was observed alone (a script's run without --result); the app's dialog always asks the technician. */
  verdictWithoutTechnician?: boolean;
  /** Waits for the organization's chain to take a recorded test and says whether it did (the command line); otherwise it is sent in the background. */
  waitForSend?: boolean;
  /** Told when a watch is ready for the press. */
  onReady?: (ready: FunctionTestReadyView) => void;
}

/** The app's account for these handlers: its session's, for the capability asked. */
export function sessionAccount(session: Pick<AccountSession, 'require'>): AccountabilityHandlerDeps['account'] {
  return async (capability) => {
    const account = session.require(capability);
    const local = account.kind === 'local';
    return {
      client: account.client,
      serviceUrl: local ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl,
      orgId: account.orgId,
      ...(account.keyName ? { actor: account.keyName } : {}),
      label: local ? 'the local workspace' : `organization ${account.orgId} at ${account.serviceUrl}`,
    };
  };
}

interface PendingTest {
  serialNumber: string;
  configurationName: string;
  syncId: string | null;
  observation: FunctionTestObservation;
}

/** Observations waiting for a verdict; a few at most (one dialog each), the oldest dropped. */
const MAX_PENDING = 16;

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'configuration';
}

/** The commissioning state in words: English in the ledger's own words, another language in the report catalog's. */
function commissioningWords(
  commissioning: ReturnType<typeof commissioningViewOf>,
  language: CatalogLanguage | undefined,
): string {
  if (language === undefined || language === 'en') return commissioningText(commissioning);
  return commissioningStatusText(commissioning.state, commissioning.missing, createTranslator(language));
}

/**
 * The function test after an apply and the commissioning report (docs/ledger.md): the Workbench's
 * dialog and button, `device function-test` and `report` on the command line.
 */
export function accountabilityHandlers(deps: AccountabilityHandlerDeps): HandlerGroup<AccountabilityChannel> {
  const pending = new Map<string, PendingTest>();
  /** The watches running now, by the serial number of the device under test: Stop aborts one. */
  const watching = new Map<string, AbortController>();

  const recordTest = async (
    test: PendingTest,
    technician: 'pass' | 'fail' | undefined,
    note: string,
    language?: CatalogLanguage,
  ): Promise<FunctionTestRecordView> => {
    const account = await deps.account('files.download');
    const ledger = deps.ledger();
    const verdict = verdictOf(test.observation, technician);
    const entry = await recordFunctionTest(ledger, {
      serialNumber: test.serialNumber,
      workstation: await deps.workstation(),
      ...(account.actor ? { actor: account.actor } : {}),
      serviceUrl: account.serviceUrl,
      orgId: account.orgId,
      observation: test.observation,
      verdict,
      note,
      syncId: test.syncId,
      configurationName: test.configurationName,
      at: new Date(),
    });
    // The organization's chain gets it when the service answers; `ledger verify` sends it later otherwise.
    const sending = sendLedger(ledger, account).then(
      () => true,
      () => false,
    );
    const sentToService = deps.waitForSend ? await sending : undefined;
    const commissioning = commissioningViewOf(await ledger.entries(), test.serialNumber);
    return {
      serialNumber: test.serialNumber,
      result: verdict.result,
      reasons: verdict.reasons,
      failReasons: failReasonsOf(test.observation, technician),
      note,
      commissioning,
      ledgerSeq: entry.seq,
      ledgerHash: entry.hash,
      commissioningText: commissioningWords(commissioning, language),
      ...(sentToService !== undefined ? { sentToService } : {}),
    };
  };

  return {
    'functionTest.observe': async (input): Promise<FunctionTestObservationView> => {
      const account = await deps.account('files.download');
      const serial = input.serialNumber;
      const record = (await account.client.devices.list({ serial })).items.find((d) => d.serialNumber === serial);
      if (!record?.configurationId)
        throw new FunctionTestRefusedError(
          'VALIDATION',
          `${serial} is in no configuration, so there is no safety function to test: apply a configuration first.`,
          record ? 'noConfiguration' : 'notRegistered',
          serial,
        );
      const configuration = await account.client.configurations.get(record.configurationId);
      if (input.link !== undefined && !deps.namedLinks)
        throw new CoreError('VALIDATION', 'Name the device by its serial number: it is watched where it is attached.');
      // A link the host names is watched as it is, with no look for the others (as `--link` always did).
      const attached = input.link !== undefined ? [] : await deps.attached();
      const linkOf = (serialNumber: string) => attached.find((d) => d.serialNumber === serialNumber)?.link;
      const link = input.link ?? linkOf(serial);
      if (!link)
        throw new FunctionTestRefusedError(
          'DEVICE_ERROR',
          `${serial} is not attached (or not answering): attach it and try again.`,
          'notAttached',
          serial,
        );
      const receivers: FunctionTestDevice[] = [];
      const notAttached: string[] = [];
      for (const { serialNumber } of configuration.devices) {
        if (serialNumber === serial) continue;
        const receiverLink = linkOf(serialNumber);
        if (receiverLink) receivers.push({ serialNumber, link: receiverLink });
        else notAttached.push(serialNumber);
      }
      if (watching.has(serial))
        throw new CoreError(
          'VALIDATION',
          `${serial} is being watched for its function test already: finish or stop that one first.`,
        );
      const stop = new AbortController();
      watching.set(serial, stop);
      const held = [link, ...receivers.map((r) => r.link)];
      for (const each of held) deps.watchedLinks?.add(each);
      let observation: FunctionTestObservation;
      try {
        observation = await observeFunctionTest({ serialNumber: serial, link }, receivers, {
          ...(deps.linkDeps ? { linkDeps: deps.linkDeps } : {}),
          pressTimeoutMs: input.pressTimeoutSeconds * 1000,
          signal: stop.signal,
          onReady: () =>
            deps.onReady?.({
              serialNumber: serial,
              configurationName: configuration.name,
              receivers: receivers.map((r) => r.serialNumber),
            }),
        });
      } finally {
        watching.delete(serial);
        for (const each of held) deps.watchedLinks?.delete(each);
      }
      for (const serialNumber of notAttached)
        observation.unreachable.push({ serialNumber, reason: 'not attached to this computer' });
      const test: PendingTest = {
        serialNumber: serial,
        configurationName: configuration.name,
        syncId: record.deployedSyncId,
        observation,
      };
      const notDone = notDoneText(observation);
      // A test that was not done has no verdict to wait for: it is kept as a failure now, so the
      // ledger says the device was not tested rather than nothing at all.
      const recorded = notDone && input.recordNotDone ? await recordTest(test, undefined, '') : null;
      const observationId = randomUUID();
      if (!recorded) {
        pending.set(observationId, test);
        if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
      }
      return {
        notDone,
        recorded,
        observationId,
        serialNumber: serial,
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
        observation,
      };
    },
    'functionTest.stop': async (input) => {
      const running = watching.get(input.serialNumber);
      running?.abort();
      return { stopped: running !== undefined };
    },
    'functionTest.record': async (input) => {
      await deps.account('files.download');
      if (input.technician === undefined && !deps.verdictWithoutTechnician)
        throw new CoreError('VALIDATION', "Say whether the machine stopped: the technician's verdict is pass or fail.");
      const test = pending.get(input.observationId);
      if (!test)
        throw new CoreError(
          'VALIDATION',
          'This function test is no longer open (Provisioner restarted, or it was recorded already): run it again.',
        );
      pending.delete(input.observationId);
      return recordTest(test, input.technician, input.note, input.language);
    },
    'functionTest.due': async (input) => {
      await deps.account('files.download');
      const entries = await deps.ledger().entries();
      return {
        serialNumbers: input.serialNumbers.filter((serialNumber) => {
          const last = entries.findLast((entry) => entry.serialNumber === serialNumber);
          return last?.action === 'configuration-apply' && last.outcome === 'success';
        }),
      };
    },
    'reports.commissioning': async (input): Promise<CommissioningReportFileView> => {
      const account = await deps.account();
      try {
        const report = await makeCommissioningReport(
          {
            client: account.client,
            ledger: deps.ledger(),
            cache: deps.cache(),
            workstation: await deps.workstation(),
            service: account.label,
            orgId: account.orgId,
          },
          {
            ...(input.configurationId !== undefined
              ? { configurationId: input.configurationId }
              : { configurationName: input.configurationName ?? '' }),
            ...(input.serialNumber ? { deviceSerial: input.serialNumber } : {}),
          },
        );
        const bytes =
          input.format === 'pdf'
            ? await renderReportPdf(report, { language: input.language ?? 'en' })
            : new TextEncoder().encode(`${JSON.stringify(report, null, 2)}\n`);
        const day = report.generatedAt.slice(0, 10);
        const words = createTranslator(input.language ?? 'en');
        return {
          fileName: `${safeFileName(report.configuration.name)}${input.serialNumber ? `-${safeFileName(input.serialNumber)}` : ''}-commissioning-${day}.${input.format}`,
          contentBase64: Buffer.from(bytes).toString('base64'),
          mediaType: input.format === 'pdf' ? 'application/pdf' : 'application/json',
          configurationName: report.configuration.name,
          deviceCount: report.devices.length,
          commissionedCount: report.devices.filter((d) => d.commissioning === 'commissioned').length,
          ledgerIntact: report.ledger.intact,
          notCommissioned: report.devices
            .filter((d) => d.commissioning !== 'commissioned')
            .map((d) => ({
              serialNumber: d.serialNumber,
              status: commissioningStatusText(d.commissioning, d.missingSteps, words),
            })),
          ledgerBroken: report.ledger.broken ?? null,
        };
      } catch (error) {
        if (error instanceof ReportRequestError) throw new CoreError('VALIDATION', error.message);
        // A machine without the CJK font a Chinese report needs: said with how to install it.
        if (error instanceof ReportFontError) throw new CoreError('INTERNAL', error.message);
        // Anything else as it is: the app's core turns it into its CoreError, the command line says a service's failure its own way.
        throw error;
      }
    },
  };
}
