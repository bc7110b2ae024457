import {
  checkConfigurationCompleteness,
  effectiveDevices,
  errorsOf,
  type ConfigurationMember,
  type Violation,
} from '../../domain';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import {
  getConfiguration,
  sealedWifiPasswords,
  setCurrentSettingsHashes,
  type StoredConfiguration,
} from '../store/configurations';
import { configurationContext } from './context';
import { fileSettingsOf, membersOf, settingsHashOf, settingsOf, type FileSettings } from './model';

export type FileState =
  | { complete: false; violations: Violation[] }
  | { complete: true; files: Map<string, { settings: FileSettings; hash: string }> };

/**
 * What the service would put in each device's file now: nothing while the configuration is
 * incomplete (with the reasons), otherwise each device's content and its keyed hash.
 */
export async function fileState(
  db: Queryable,
  svc: Pick<ServiceContext, 'secrets'>,
  stored: StoredConfiguration,
): Promise<FileState> {
  const passwords = await sealedWifiPasswords(db, stored.id);
  const members: ConfigurationMember[] = membersOf(stored).map((member) => {
    const sealed = passwords.get(member.serialNumber);
    return sealed ? { ...member, wifiPassword: svc.secrets.box.open(sealed) } : member;
  });
  const ctx = await configurationContext(
    db,
    stored.orgId,
    members.map((m) => m.networkTemplateId),
    svc.secrets.box,
  );
  const settings = settingsOf(stored);
  // Warnings (rules of ours) hold back no file: only errors do.
  const violations = errorsOf(checkConfigurationCompleteness(settings, members, ctx));
  if (violations.length > 0) return { complete: false, violations };
  const contents = fileSettingsOf(stored, effectiveDevices(settings, members, ctx));
  const files = new Map<string, { settings: FileSettings; hash: string }>();
  for (const [serial, content] of contents)
    files.set(serial, { settings: content, hash: settingsHashOf(svc, content) });
  return { complete: true, files };
}

/**
 * Recomputes which content each device of the configuration would get now. Called in the
 * transaction of every change, so that deploy statuses (Deployed vs Outdated) read true at once.
 */
export async function refreshSettingsHashes(
  db: Queryable,
  svc: Pick<ServiceContext, 'secrets'>,
  orgId: string,
  configurationId: string,
): Promise<void> {
  const stored = await getConfiguration(db, orgId, configurationId);
  if (!stored) return;
  const state = await fileState(db, svc, stored);
  const hashes = new Map<string, string | null>(
    stored.members.map((m) => [
      m.serialNumber,
      state.complete ? (state.files.get(m.serialNumber)?.hash ?? null) : null,
    ]),
  );
  await setCurrentSettingsHashes(db, configurationId, hashes);
}
