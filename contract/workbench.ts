import type { ChangeSubject } from '../domain/configuration-diff';
import { z } from 'zod';
import type { DeviceType } from '../domain/device-types';
import { JOB_ACTIONS, type JobView } from '../domain/jobs';
import { command, noInput, query } from './channel-spec';
import { nonEmpty } from './inputs';

import type { LinkKind } from '../domain/link-kind';

export type { LinkKind };

/** What an attached device needs, as far as the core can tell. */
export interface DeviceNeeds {
  firmware: { needed: boolean; latestVersion: string | null; reason: string | null };
  configuration: {
    needed: boolean;
    syncId: string | null;
    reason: string | null;
    /**
     * Why no configuration can be applied at all (the device is in no configuration, or not
     * registered): "Apply configuration" and "Both" are offered disabled with this reason.
     */
    blocked: { code: string; reason: string } | null;
  };
}

export interface AttachedDeviceView {
  /** Stable while attached, e.g. `serial:/dev/pts/3`; what jobs target. */
  linkId: string;
  linkKind: LinkKind;
  /** Where: a port path, an IP address or a BLE address. */
  address: string;
  serialNumber: string | null;
  deviceType: DeviceType | null;
  model: string | null;
  firmwareVersion: string | null;
  configSyncId: string | null;
  /** Why the device could not be identified (e.g. no answer to the info request). */
  error: string | null;
  needs: DeviceNeeds | null;
  /** The running or last job on this device. */
  activeJobId: string | null;
  /**
   * Set while another attached device claims the same serial number (domain/shared-serial.ts):
   * every link that claims it, and the technician's reason. Nothing read of it is confirmed to
   * the service and no job starts on it until one is unplugged. Absent from older cores.
   */
  sharedSerial?: { links: string[]; reason: string } | null;
  /** Which protocol the device speaks: ours, or the vendor's (docs/vendor-devices.md). Absent from older cores: ours. */
  protocol?: DeviceProtocolKind;
}

/** The two device protocols (docs/architecture.md, "Two device protocols"). */
export type DeviceProtocolKind = 'provisioner' | 'vendor';

/** Serial ports asked beside USB product id 0xD101, as globs (RS-485 adapters, simulators' ptys). */
export interface PortGlobsView {
  /** The technician's setting, kept between runs. */
  saved: string[];
  /** From `$PROVISIONER_PORTS` or the host; asked too, not editable here. */
  fromEnvironment: string[];
}

/** The change view before an apply (main/core/configuration-changes.ts). */
export interface ConfigurationChangesView {
  serialNumber: string;
  appliedSyncId: string | null;
  syncId: string;
  /** Where the applied settings were read from; null when not known or none applied. */
  appliedFrom: 'kept copy' | 'service' | null;
  inSync: boolean;
  /** `text` is the English line; `subject` says it as codes and values for another language (changeText). */
  changes: { field: string; before: string; after: string; text: string; subject?: ChangeSubject }[];
}

const jobId = z.object({ jobId: nonEmpty.max(128) }).strict();

/** A technician's confirmation of a job's parameter table, as recorded in the ledger (issue 26). */
export interface ParameterConfirmationView {
  jobId: string;
  serialNumber: string;
  /** The person who typed the checksum. */
  confirmedBy: string;
  /** The short checksum they typed (the device's). */
  checksumShort: string;
  confirmedAt: string;
  ledgerSeq: number;
}

/** The device workbench: attached devices and the jobs that provision them. */
export const WORKBENCH_CHANNELS = {
  'workbench.devices': query(noInput).returns<AttachedDeviceView[]>(),
  'workbench.rescan': command(noInput).returns<AttachedDeviceView[]>(),
  'workbench.start': command(
    z.object({ linkIds: z.array(z.string().min(1).max(256)).min(1).max(64), action: z.enum(JOB_ACTIONS) }).strict(),
  ).returns<JobView[]>(),
  'workbench.cancel': command(jobId).returns<boolean>(),
  'workbench.retry': command(jobId).returns<JobView>(),
  'workbench.jobs': query(noInput).returns<JobView[]>(),
  'workbench.clearFinished': command(noInput).returns<JobView[]>(),
  /** A device's last finished jobs, newest first, each with its steps (kept across restarts). */
  'workbench.timeline': query(z.object({ device: nonEmpty.max(256) }).strict()).returns<JobView[]>(),
  /** What applying the device's next configuration file would change, parameter by parameter; nothing is applied. */
  'workbench.configurationChanges': query(
    z.object({ serialNumber: nonEmpty.max(64) }).strict(),
  ).returns<ConfigurationChangesView>(),
  /**
   * The technician confirms a finished configuration job's parameter table by typing the device's
   * short checksum (8 hex digits), with their own name. Refused (VALIDATION, with why) when the
   * checksums differ or the digits are not the device's; recorded in the ledger as the CLI does.
   */
  'workbench.confirmParameters': command(
    z
      .object({
        jobId: nonEmpty.max(128),
        checksum: z.string().max(64),
        technician: z.string().trim().min(1, 'Type your name: a confirmation names the person who gives it.').max(200),
      })
      .strict(),
  ).returns<ParameterConfirmationView>(),
  'workbench.portGlobs': query(noInput).returns<PortGlobsView>(),
  'workbench.setPortGlobs': command(
    z.object({ portGlobs: z.array(z.string().trim().min(1).max(1024)).max(32) }).strict(),
  ).returns<PortGlobsView>(),
} as const;
export type WorkbenchChannel = keyof typeof WORKBENCH_CHANNELS;
