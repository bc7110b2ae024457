import type { DeviceConnection, DeviceTarget } from './device-port';
import type { JobPhase } from './job-state';
import type { JobControl, JobEnvironment } from './context';
import { isLinkLoss } from '../../devices/operations/link-loss';
import { reconnectSameDevice } from './reconnect';

/** The job's current session: replaced when the device is reconnected, closed by the job at its end. */
export interface SessionHolder {
  session: DeviceConnection | undefined;
}

/**
 * Runs `step` on the device; when the link is lost (pulled cable, BLE dropped, no answer), waits for
 * the same device to come back and runs `step` again on the new session. A firmware upload then
 * resumes from the offset the device reports; a configuration upload starts over (it is small and
 * a device applies only a complete file).
 */
export async function runWithReconnect(
  env: Pick<JobEnvironment, 'connector' | 'reconnect'>,
  target: DeviceTarget,
  serialNumber: string,
  holder: SessionHolder,
  control: JobControl,
  where: { phase: JobPhase; percent: number | null },
  /** The notice to show again once the device is back (e.g. "installing from the cache"). */
  baseNotice: string | null,
  step: (session: DeviceConnection) => Promise<void>,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await step(holder.session!);
      return;
    } catch (error) {
      // A device named by link is already reconnected on that link by the device operations; one
      // named by serial number may come back elsewhere (another USB port), found by discovery.
      if (
        control.signal.aborted ||
        !isLinkLoss(error) ||
        target.kind !== 'serialNumber' ||
        attempt >= env.reconnect.attempts
      )
        throw error;
      const at = where.percent === null ? '' : ` at ${Math.floor(where.percent)}%`;
      control.update({
        attempts: attempt + 1,
        notice: `connection lost${at}; waiting for ${serialNumber} to come back`,
      });
      await holder.session?.close().catch(() => undefined);
      holder.session = undefined;
      holder.session = await reconnectSameDevice(env.connector, target, serialNumber, env.reconnect, control.signal);
      control.update({ link: holder.session.link, notice: baseNotice });
    }
  }
}
