import type { ConfigurationReadinessView, JobsChannel, JobTargetView, TargetProblem } from '../../../contract/index';
import { sharedSerialRefusal, sharedSerials } from '../../../domain/shared-serial';
import { configurationReadiness, type JobsEngine, type JobSnapshot, type ProvisioningClient } from '../../engine/jobs';
import type { HandlerGroup } from './types';

/** A device seen attached, as target resolution needs it: where, and who answered there (null: nobody identified). */
export interface AttachedForTargets {
  link: string;
  serialNumber: string | null;
  error: string | null;
}

export interface JobsHandlerDeps {
  engine: Pick<JobsEngine, 'start' | 'wait' | 'cancel'>;
  /** The client the service is asked through (readiness); throws when nobody is signed in. */
  client: () => Pick<ProvisioningClient, 'devices'> | Promise<Pick<ProvisioningClient, 'devices'>>;
  /** The attached devices, with the links given probed too. */
  attached: (extraLinks: readonly string[]) => Promise<AttachedForTargets[]>;
  /** Refuses requests this host may not start (the app: the role's capability, devices it lists); default none. */
  admit?: (targets: readonly JobTargetView[]) => void;
  /** Told of the jobs a `jobs.start` began (the app: they are the Workbench's, with its parameter verification). */
  started?: (jobs: readonly JobSnapshot[]) => void;
}

/**
 * The `jobs.*` channels (contract/jobs.ts) over the jobs engine: target resolution with the
 * shared-serial rule, the readiness check before a job, and the jobs themselves. The CLI drives
 * its jobs through them; the app serves them too.
 */
export function jobsHandlers(deps: JobsHandlerDeps): HandlerGroup<JobsChannel> {
  return {
    'jobs.resolveTargets': (input) => resolveTargets(deps, input),
    'jobs.readiness': async (input) => {
      const client = await deps.client();
      const answers: ConfigurationReadinessView[] = [];
      for (const serialNumber of input.serialNumbers)
        answers.push({ serialNumber, ...(await configurationReadiness(client, serialNumber)) });
      return answers;
    },
    'jobs.start': async (input) => {
      deps.admit?.(input.requests.map((request) => request.target));
      const jobs = deps.engine.start(input.requests);
      deps.started?.(jobs);
      return jobs;
    },
    'jobs.wait': (input) => deps.engine.wait(input.jobId),
    'jobs.cancel': async (input) => deps.engine.cancel(input.jobId),
  };
}

/**
 * Links alone are used as given (the job checks who answers). Serial numbers are looked up once,
 * over every attached device and the given links, so that 16 devices do not each probe every port.
 */
async function resolveTargets(
  deps: JobsHandlerDeps,
  input: { serialNumbers: string[]; links: string[]; all: boolean },
): Promise<{ targets: JobTargetView[]; problems: TargetProblem[] }> {
  const { serialNumbers, links, all } = input;
  if (serialNumbers.length === 0 && !all)
    return { targets: links.map((spec) => ({ kind: 'link', spec })), problems: [] };
  if (serialNumbers.length === 1 && links.length === 1 && !all) {
    // "SN on this link": the job refuses to talk on if another device answers there.
    return { targets: [{ kind: 'link', spec: links[0]!, serialNumber: serialNumbers[0]! }], problems: [] };
  }
  const attached = await deps.attached(links);
  const identified = attached.filter(
    (d): d is AttachedForTargets & { serialNumber: string } => d.serialNumber !== null,
  );
  const targets: JobTargetView[] = [];
  const problems: TargetProblem[] = [];
  const wanted = new Set(serialNumbers);
  // Two attached devices that claim one serial number: neither is known to be the real one, and a
  // job's confirmation would speak for that serial. Neither is a target, whatever named it.
  const shared = sharedSerials(identified.map((d) => ({ serialNumber: d.serialNumber, link: d.link })));
  const refusedShared = new Set<string>();
  const refuseShared = (serialNumber: string): boolean => {
    const reason = sharedSerialRefusal(shared, serialNumber);
    if (!reason) return false;
    if (!refusedShared.has(serialNumber)) problems.push({ kind: 'sharedSerial', serialNumber, reason });
    refusedShared.add(serialNumber);
    return true;
  };
  for (const serialNumber of serialNumbers) {
    const found = identified.find((d) => d.serialNumber === serialNumber);
    if (found && refuseShared(serialNumber)) continue;
    if (found) targets.push({ kind: 'link', spec: found.link, serialNumber });
    else problems.push({ kind: 'notAnswering', serialNumber, attached: identified.map((d) => d.serialNumber) });
  }
  for (const device of identified) {
    if (wanted.has(device.serialNumber) || !(all || links.includes(device.link))) continue;
    if (!refuseShared(device.serialNumber))
      targets.push({ kind: 'link', spec: device.link, serialNumber: device.serialNumber });
  }
  for (const spec of links) {
    const device = attached.find((d) => d.link === spec);
    if (device && device.serialNumber === null) problems.push({ kind: 'noAnswer', link: spec, error: device.error });
  }
  return { targets, problems };
}
