import type { ParameterConfirmationView } from '../../../contract/workbench';
import { CoreError } from '../../../contract/errors';
import { confirmationRefusal, shortChecksum } from '../../../domain/running-parameters';
import type { JobSnapshot } from '../../engine/jobs';
import { appendParameterVerifications, type VerifiedParameters } from '../../engine/jobs/parameter-check';
import { sendLedger, type Ledger } from '../../engine/ledger';
import { LOCAL_WORKSPACE_SERVICE } from '../local-workspace';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

export interface ParameterConfirmationDeps {
  session: AccountSession;
  /** The jobs of this run, with their full parameter comparison (the view carries only what a screen shows). */
  jobs: () => JobSnapshot[];
  ledger: Ledger;
  workstation: () => Promise<string>;
}

/**
 * The Workbench's parameter confirmation (issue 26): the technician types the device's short
 * checksum with their name. The rule is the domain's (confirmationRefusal, as the CLI applies it)
 * and the ledger entry is written by the CLI's path (appendParameterVerifications). Nothing here
 * confirms on its own: only this channel, called by a person's typing, does.
 */
export function parameterConfirmationHandlers(deps: ParameterConfirmationDeps): {
  handlers: HandlerGroup<'workbench.confirmParameters'>;
  /**
   * A Workbench job finished: a table that differs is a failed verification, recorded at once
   * (never a confirmation). A matching one waits for a person.
   */
  jobFinished(job: JobSnapshot): Promise<void>;
} {
  const confirmed = new Map<string, ParameterConfirmationView>();
  /** Jobs whose differing table is in the ledger already: recorded once, not per attempt. */
  const failureRecorded = new Set<string>();

  const contextOf = async (account: ReturnType<AccountSession['require']>, person: string | null) => ({
    workstation: await deps.workstation(),
    person,
    ...(account.keyName ? { actor: account.keyName } : {}),
    serviceUrl: account.kind === 'local' ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl,
    orgId: account.orgId,
  });
  const recordFailure = async (
    job: JobSnapshot,
    verified: VerifiedParameters,
    account: ReturnType<AccountSession['require']>,
    person: string | null,
  ) => {
    if (failureRecorded.has(job.jobId)) return;
    failureRecorded.add(job.jobId);
    const context = await contextOf(account, person);
    await appendParameterVerifications(deps.ledger, [verified], { ...context, confirmation: null });
    void sendLedger(deps.ledger, {
      client: account.client,
      serviceUrl: context.serviceUrl,
      orgId: account.orgId,
    }).catch(() => undefined);
  };

  const jobFinished = async (job: JobSnapshot): Promise<void> => {
    const comparison = job.parameters;
    const account = deps.session.current();
    if (!comparison || comparison.match || !job.serialNumber || !job.syncId || !account) return;
    await recordFailure(
      job,
      { serialNumber: job.serialNumber, link: job.link ?? job.linkId, syncId: job.syncId, comparison },
      account,
      null,
    );
  };

  const handlers: HandlerGroup<'workbench.confirmParameters'> = {
    'workbench.confirmParameters': async (input) => {
      const account = deps.session.require('files.download');
      const job = deps.jobs().find((j) => j.jobId === input.jobId);
      if (!job)
        throw new CoreError(
          'VALIDATION',
          'This job is no longer in this session (Provisioner restarted, or the results were cleared): apply the configuration again to verify and confirm its parameters.',
        );
      const comparison = job.parameters;
      if (!comparison || !job.serialNumber || !job.syncId)
        throw new CoreError(
          'VALIDATION',
          'This job read back no parameters, so there is nothing to confirm: apply the configuration to the device.',
        );
      const done = confirmed.get(job.jobId);
      if (done)
        throw new CoreError(
          'VALIDATION',
          `${done.serialNumber}'s parameters were confirmed already, by ${done.confirmedBy} at ${done.confirmedAt}.`,
        );
      const verified: VerifiedParameters = {
        serialNumber: job.serialNumber,
        link: job.link ?? job.linkId,
        syncId: job.syncId,
        comparison,
      };
      const refusal = confirmationRefusal(comparison, input.checksum);
      if (refusal !== null) {
        // A table that differs is a failed verification (recorded once); mistyped digits are not:
        // the person reads the table again and types once more.
        if (!comparison.match) await recordFailure(job, verified, account, input.technician);
        throw new CoreError('VALIDATION', refusal);
      }
      const context = await contextOf(account, input.technician);
      const at = new Date();
      const [entry] = await appendParameterVerifications(deps.ledger, [verified], {
        ...context,
        confirmation: { person: input.technician, at },
      });
      void sendLedger(deps.ledger, {
        client: account.client,
        serviceUrl: context.serviceUrl,
        orgId: account.orgId,
      }).catch(() => undefined);
      const view: ParameterConfirmationView = {
        jobId: job.jobId,
        serialNumber: job.serialNumber,
        confirmedBy: input.technician,
        checksumShort: shortChecksum(comparison.runningChecksum),
        confirmedAt: at.toISOString(),
        ledgerSeq: entry!.seq,
      };
      confirmed.set(job.jobId, view);
      return view;
    },
  };
  return { handlers, jobFinished };
}
