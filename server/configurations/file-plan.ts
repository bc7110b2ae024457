import type { Violation } from '../../domain';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { getConfiguration } from '../store/configurations';
import { getRegisteredDevice } from '../store/devices';
import type { FileIssue } from '../store/file-issues';
import { fileState } from './files';
import type { FileSettings } from './model';

/**
 * What a device's configuration file would hold now, without what each download adds (syncId,
 * sequence, issue time, signature): the costly part of a download (the configuration, its
 * devices, templates and Wifi passwords read and checked, the content hashed), prepared once and
 * kept in the read cache until a table it was read from changes. A complete plan holds the
 * device's Wifi password in the clear, as the file will: the process holds the key that opens the
 * sealed passwords anyway, and the plan never leaves it except in the signed file.
 */
export type FilePlan =
  | { kind: 'unregistered' }
  | { kind: 'unconfigured' }
  | { kind: 'incomplete'; configurationId: string; configurationName: string; violations: Violation[] }
  | { kind: 'complete'; configurationId: string; settings: FileSettings; hash: string };

/** Prepares the plan from what `db` sees (a download's transaction: one snapshot). */
export async function prepareFilePlan(
  db: Queryable,
  svc: Pick<ServiceContext, 'secrets'>,
  orgId: string,
  serialNumber: string,
): Promise<FilePlan> {
  const device = await getRegisteredDevice(db, orgId, serialNumber);
  if (!device) return { kind: 'unregistered' };
  const stored =
    device.configurationId === null ? undefined : await getConfiguration(db, orgId, device.configurationId);
  if (!stored) return { kind: 'unconfigured' };
  const state = await fileState(db, svc, stored);
  if (!state.complete)
    return {
      kind: 'incomplete',
      configurationId: stored.id,
      configurationName: stored.name,
      violations: state.violations,
    };
  const file = state.files.get(serialNumber);
  if (!file) throw new Error(`The file of ${serialNumber} is missing from its complete configuration.`);
  return { kind: 'complete', configurationId: stored.id, settings: file.settings, hash: file.hash };
}

/**
 * Whether a kept plan is the one the download's own snapshot (`issue`) calls for. Every change to
 * a configuration stores the content hash of each of its devices in the same transaction, so a
 * plan whose hash is the one stored now holds exactly the current content, whatever this instance
 * has heard yet; one that is not is prepared again in the download's transaction.
 */
export function planStillHolds(plan: FilePlan, issue: FileIssue | undefined): boolean {
  if (!issue) return plan.kind === 'unregistered';
  switch (plan.kind) {
    case 'unregistered':
      return false;
    case 'unconfigured':
      return issue.configurationId === null;
    case 'incomplete':
      return issue.configurationId === plan.configurationId && issue.currentSettingsHash === null;
    case 'complete':
      return issue.configurationId === plan.configurationId && issue.currentSettingsHash === plan.hash;
  }
}
