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
  env: Pick<JobEnvironment, 'connector' | 'reconciler' | 'now'> & { client?: Pick<JobEnvironment['client'], 'devices'> },
  target: DeviceTarget,
  control: JobControl,
  where: JobWhereabouts,
  holder: SessionHolder,
): Promise<{ identity: DeviceIdentity; session: DeviceConnection }> {
  where.connecting = true;
  holder.session = await env.connector.connect(target, { signal: control.signal });
  where.connecting = false;
  const session = holder.session;
  // A vendor FRC's type is the service's record's, not a guess from its serial number.
  if (session instanceof VendorConnection && env.client) await takeTypeFromRecord(session, env.client.devices, control.signal);
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
