import { z } from 'zod';
import type { DeviceType } from '../domain/device-types';
import type { LinkKind } from '../domain/link-kind';
import type { ParameterComparison } from '../domain/running-parameters';
import type { DeviceSyncState, SyncFinding } from '../domain/sync-detail';
import type { CommissioningView } from './accountability';
import { command, query } from './channel-spec';
import { nonEmpty } from './inputs';

/**
 * Devices read back by a host that finds them itself (the CLI's `device list`, `device verify` and
 * `device verify --parameters`): what is attached, how each stands against the service, what its
 * running parameters are against the file the service makes for it, and what this workstation's
 * ledger says of its commissioning. The core reads the devices; a later channel names devices by
 * the links the last `readback.attached` answered, so what is judged, recorded and confirmed is
 * only ever what the core itself read. The app's Workbench keeps its own live list (workbench.*).
 */

/** A link spec as typed or as listed, passed on as is (the finder says what is wrong with one). */
const linkSpec = z.string().max(1024);
/** The API key's name the ledger entry names as its actor. */
const keyName = z.string().min(1).max(2000);
/** Links the last `readback.attached` listed. */
const listedLinks = z.array(linkSpec).max(1000);
/** A person's own name, kept in the ledger as given (--technician, PROVISIONER_TECHNICIAN or typed). */
const personName = z.string().max(2000);
/** A serial number as a device reported it (kept as is: it names the device in the ledger). */
const reportedSerial = z.string().min(1).max(200);

/** What a device said of itself over its link. */
export interface DeviceIdentityView {
  serialNumber: string;
  deviceType: DeviceType;
  model: string;
  firmwareVersion: string;
  /** syncId of the configuration applied, null when none ever was (or the device names none). */
  configSyncId: string | null;
  /** Changes at every boot. */
  bootId: number | string;
}

/** A device seen attached, identified or not. */
export interface ReadBackDeviceView {
  /** A link spec that reaches it again: 'serial:/dev/pts/4', 'udp:127.0.0.1:5683', 'ble:…'. */
  link: string;
  linkKind: LinkKind;
  identity: DeviceIdentityView | null;
  /** Why it could not be identified. */
  error: string | null;
  /** Which protocol it speaks: ours, or the vendor's (docs/vendor-devices.md); absent when unknown. */
  protocol?: 'provisioner' | 'vendor';
}

/** How a device stands against what the service expects, whole (main/engine/jobs/device-sync.ts). */
export interface DeviceSyncRecord {
  state: DeviceSyncState;
  /** For a person, in English: "in sync", "firmware behind (device 1.0.0, service expects 1.1.0)", ... */
  text: string;
  /** `text` as codes and values, said in the reader's language (syncDetailText, domain/sync-detail.ts). */
  findings?: SyncFinding[];
  firmware: { version: string | null; expected: string | null };
  configuration: { syncId: string | null; expected: string | null };
  /** When the service last recorded what a workstation saw of the device; null when never. */
  lastObservedAt: string | null;
}

/** An attached device observed: what it runs confirmed to the service, and how it stands. */
export interface AttachedStandingView {
  link: string;
  /** As read, with the type the service's record tells where the device cannot (a vendor FRC). */
  identity: DeviceIdentityView;
  sync: DeviceSyncRecord;
  /** 'sent' when the service has what this contact confirmed, 'queued' when some waits in the outbox. */
  confirmation: 'sent' | 'queued' | 'none';
  /** Jobs an earlier run left unfinished on it, judged now from what it runs. */
  interrupted: Array<{ kind: 'firmware' | 'configuration'; jobId: string; success: boolean }>;
}

export interface AttachedStandingsView {
  /** One per link asked, in the order asked. */
  standings: AttachedStandingView[];
  /** Why the devices could not be judged against the service (each then reads "unknown"); null when they were. */
  error: string | null;
}

/** One device's `device verify` verdict. */
export interface DeviceVerdictView {
  link: string;
  serialNumber: string;
  sync: DeviceSyncRecord;
}

export interface DeviceVerdictsView {
  /** One per link asked, in the order asked. */
  verdicts: DeviceVerdictView[];
  /** Devices whose running settings could not be read back (their verdict stands on the identity alone). */
  readBackFailures: Array<{ serialNumber: string; reason: string }>;
  /** Why the verdicts could not be written to this workstation's ledger; null when they were. */
  ledgerError: string | null;
}

/** A device's running parameters against its file, as read and recorded; or why they could not be read. */
export type ParameterReadBackView =
  | { serialNumber: string; link: string; syncId: string; comparison: ParameterComparison }
  | { serialNumber: string; error: string };

export interface ParameterReadBacksView {
  /** One per link asked, in the order asked. */
  results: ParameterReadBackView[];
  /** Why the verifications could not be written to this workstation's ledger; null when they were. */
  ledgerError: string | null;
}

export interface ParameterRecordView {
  /** Why the verification could not be written to this workstation's ledger; null when it was. */
  ledgerError: string | null;
}

export const READBACK_CHANNELS = {
  /** Every device attached now (serial ports, BLE in range, and the links given), identified over its link. */
  'readback.attached': query(z.object({ links: z.array(linkSpec).max(1000).default([]) }).strict()).returns<
    ReadBackDeviceView[]
  >(),
  /**
   * Observes listed devices: what each runs that the service has not recorded is confirmed to it,
   * interrupted jobs on it are judged, and each is judged against the service. Without an account
   * each reads "unknown".
   */
  'readback.standing': command(
    z
      .object({
        links: listedLinks,
        /** False when the host could not settle an account: nothing is confirmed, each reads "unknown". */
        observe: z.boolean().default(true),
      })
      .strict(),
  ).returns<AttachedStandingsView>(),
  /**
   * `device verify`: listed devices judged against the service without changing anything on them
   * (a vendor EPC's settings read back against its file); each verdict recorded in this
   * workstation's ledger, which is then sent.
   */
  'readback.verify': command(z.object({ links: listedLinks }).strict()).returns<DeviceVerdictsView>(),
  /**
   * `device verify --parameters`: listed devices' running parameters read back and compared with
   * the file the service makes for each now; each verification recorded unconfirmed, naming the
   * person (and the key, `actor`), and the ledger sent.
   */
  'readback.parameters': command(
    z.object({ links: listedLinks, person: personName.nullable(), actor: keyName.nullable() }).strict(),
  ).returns<ParameterReadBacksView>(),
  /**
   * Records the parameter table a job of this run read back (found by its digest), naming the
   * person; with `confirmation`, as confirmed by them: only when the table matches and the
   * checksum they confirmed is the device's (confirmationRefusal). The ledger is then sent.
   */
  'readback.recordParameters': command(
    z
      .object({
        serialNumber: reportedSerial,
        syncId: nonEmpty.max(200),
        tableDigest: z
          .string()
          .regex(/^[0-9a-f]{64}$/, { message: "a table's digest: 64 hex digits, as the job gave it" }),
        person: personName.nullable(),
        actor: keyName.nullable(),
        confirmation: z
          .object({ person: personName, checksum: z.string().max(64) })
          .strict()
          .nullable(),
      })
      .strict(),
  ).returns<ParameterRecordView>(),
  /** Whether this workstation's ledger counts each device commissioned, and which steps it still needs. */
  'readback.commissioning': query(z.object({ serialNumbers: z.array(reportedSerial).max(1000) }).strict()).returns<
    Array<{ serialNumber: string; commissioning: CommissioningView }>
  >(),
} as const;
export type ReadbackChannel = keyof typeof READBACK_CHANNELS;
