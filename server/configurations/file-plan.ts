import type { Violation } from '../../domain';
import type { ServiceContext } from '../context';
import type { ReadCache } from '../cache/read-cache';
import type { Queryable } from '../db/database';
import { getConfiguration } from '../store/configurations';
import { getRegisteredDevice } from '../store/devices';
import type { FileIssue } from '../store/file-issues';
import { fileState, type FileState } from './files';
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

/**
 * Prepares the plan from what `db` sees (a download's transaction: one snapshot). With `reads`,
 * the configuration's whole file state (every device's content: the costly part, which grows with
 * the configuration) is read through the cache, so that the files of all its devices, asked one
 * after another as a Station starting a shift asks them, compute it once rather than once each
 * (issue 30: 300 devices, 300 times the work of 300). A plan so made is checked by
 * planStillHolds like any kept plan; the one prepared again when it does not hold is prepared
 * without `reads`.
 */
export async function prepareFilePlan(
  db: Queryable,
  svc: Pick<ServiceContext, 'secrets'>,
  orgId: string,
  serialNumber: string,
  reads: ReadCache | null = null,
): Promise<FilePlan> {
  const device = await getRegisteredDevice(db, orgId, serialNumber);
  if (!device) return { kind: 'unregistered' };
  const stored =
    device.configurationId === null ? undefined : await getConfiguration(db, orgId, device.configurationId);
  if (!stored) return { kind: 'unconfigured' };
  const fresh = async () => keptFileState(await fileState(db, svc, stored));
  let state = reads
    ? await reads.through(`file-state/${orgId}/${stored.id}/${stored.lastEditedAt.toISOString()}`, fresh)
    : await fresh();
  // A kept state without this member was read before it joined: this snapshot's own, then.
  if (reads && state.complete && !Object.hasOwn(state.files, serialNumber)) state = await fresh();
  if (!state.complete)
    return {
      kind: 'incomplete',
      configurationId: stored.id,
      configurationName: stored.name,
      violations: state.violations,
    };
  const file = Object.hasOwn(state.files, serialNumber) ? state.files[serialNumber] : undefined;
  if (!file) throw new Error(`The file of ${serialNumber} is missing from its complete configuration.`);
  return { kind: 'complete', configurationId: stored.id, settings: file.settings, hash: file.hash };
}

/** A configuration's file state as plain JSON (its files by serial number), so that the read cache weighs what it holds. */
type KeptFileState =
  | { complete: false; violations: Violation[] }
  | { complete: true; files: Record<string, { settings: FileSettings; hash: string }> };

function keptFileState(state: FileState): KeptFileState {
  return state.complete ? { complete: true, files: Object.fromEntries(state.files) } : state;
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
