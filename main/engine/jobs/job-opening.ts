import { decodeConfigFile, verifyConfigFile } from '../../../domain/files';
import { deviceTypeSchema, type DeviceType } from '../../../domain/device-types';
import type { JobControl, JobEnvironment, JobWhereabouts } from './context';
import type { DeviceConnection, DeviceIdentity, DeviceTarget } from './device-port';
import { settleInterruptedJobs } from './job-contact';
import type { SessionHolder } from './session-holder';
import { takeTypeFromRecord, VendorConnection } from './vendor-connection';

/**
 * How every job step opens: connect to the target (a failure here means nothing was sent, which
 * the failure text says: `where.connecting`), settle the jobs an earlier process left unfinished
 * on the device, and show who it is and what it ran before. The firmware update and the
 * configuration apply both open this way.
 */
export async function openJobDevice(
  env: Pick<JobEnvironment, 'connector' | 'reconciler' | 'now'> & {
    client?: JobEnvironment['client'];
    configFiles?: JobEnvironment['configFiles'];
    signingKeys?: JobEnvironment['signingKeys'];
  },
  target: DeviceTarget,
  control: JobControl,
  where: JobWhereabouts,
  holder: SessionHolder,
): Promise<{ identity: DeviceIdentity; session: DeviceConnection }> {
  where.connecting = true;
  holder.session = await env.connector.connect(target, { signal: control.signal });
  where.connecting = false;
  const session = holder.session;
  // A vendor FRC's type is the service's record's, not a guess from its serial number; offline,
  // the type the service wrote into the configuration file kept for it.
  if (
    session instanceof VendorConnection &&
    env.client &&
    !(await takeTypeFromRecord(session, env.client.devices, control.signal))
  ) {
    const kept = await keptFileType(env, session.identity.serialNumber, control.signal);
    if (kept) session.takeRecordedType(kept);
  }
  const identity = session.identity;
  await settleInterruptedJobs(env, identity);
  control.update({
    serialNumber: identity.serialNumber,
    deviceType: identity.deviceType,
    link: session.link,
    previousFirmwareVersion: identity.firmwareVersion,
    attempts: 1,
  });
  return { identity, session };
}

/**
 * The device type the configuration file kept here for this serial number names (downloaded
 * earlier, or brought by a work package), once its signature checks against the service's root
 * key: a file nobody can vouch for must not decide which firmware a device gets.
 */
async function keptFileType(
  env: {
    client?: JobEnvironment['client'];
    configFiles?: JobEnvironment['configFiles'];
    signingKeys?: JobEnvironment['signingKeys'];
  },
  serialNumber: string,
  signal: AbortSignal,
): Promise<DeviceType | undefined> {
  if (!env.client || !env.configFiles || !env.signingKeys) return undefined;
  const kept = await env.configFiles.get(serialNumber).catch(() => undefined);
  if (!kept) return undefined;
  const key = await env.signingKeys.get(env.client, { signal }).catch(() => undefined);
  if (!key?.key) return undefined;
  try {
    verifyConfigFile(kept.bytes, { rootKeyPem: key.key.publicKeyPem, expectedSerialNumber: serialNumber });
    const named = deviceTypeSchema.safeParse(decodeConfigFile(kept.bytes).deviceType);
    return named.success ? named.data : undefined;
  } catch {
    return undefined;
  }
}
