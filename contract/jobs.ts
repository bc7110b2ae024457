import { z } from 'zod';
import { JOB_ACTIONS, type JobSnapshot } from '../domain/jobs';
import { command, query } from './channel-spec';
import { nonEmpty, serialNumber } from './inputs';

export type { JobSnapshot };

/**
 * Provisioning jobs on devices a host names itself (the CLI: serial numbers and link specs typed by
 * the technician), beside the Workbench's channels, which start jobs on the devices its list shows.
 * A job is answered whole (JobSnapshot: the view's fields plus those a result line says), since
 * the host prints it.
 */

const linkSpec = nonEmpty.max(1024);
const jobId = z.object({ jobId: nonEmpty.max(128) }).strict();
/** A file the technician has (a firmware bundle, a configuration file), its bytes and its name for the record. */
const fileSource = z
  .object({
    kind: z.literal('file'),
    bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'the bytes of a file'),
    name: z.string().max(1024),
  })
  .strict();

/** Where a job finds its device: a link (checked to answer with the serial number when one is given), or a serial number looked for. */
export const jobTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('link'), spec: linkSpec, serialNumber: serialNumber.optional() }).strict(),
  z.object({ kind: z.literal('serialNumber'), serialNumber }).strict(),
]);
export type JobTargetView = z.infer<typeof jobTarget>;

export const jobRequest = z
  .object({
    action: z.enum(JOB_ACTIONS),
    target: jobTarget,
    /** Default: the latest firmware for the device. */
    firmware: z.discriminatedUnion('kind', [z.object({ kind: z.literal('latest') }).strict(), fileSource]).optional(),
    /** Install even when the device already runs that version. */
    force: z.boolean().optional(),
    /** Default: the device's configuration file from the service. */
    configuration: z
      .discriminatedUnion('kind', [z.object({ kind: z.literal('service') }).strict(), fileSource])
      .optional(),
  })
  .strict();

/**
 * Whether a device's configuration step can run, asked of the service before its job starts
 * (main/engine/jobs/configuration-readiness.ts): ready, refused with a code and the technician's
 * reason, or not known (the service could not be asked; the job tries with the kept file).
 */
export type ConfigurationReadinessView = { serialNumber: string } & (
  | { ready: true; configurationId: string; configurationName: string | null }
  | { ready: false; code: 'DEVICE_NOT_IN_CONFIGURATION' | 'DEVICE_NOT_REGISTERED'; reason: string }
  | { ready: null; reason: string }
);

/** Why a device asked for is not a target, as values for the host to say in its reader's language. */
export type TargetProblem =
  /** No attached device answered with this serial number; `attached` are those that did. */
  | { kind: 'notAnswering'; serialNumber: string; attached: string[] }
  /** Two or more attached devices claim the serial number (domain/shared-serial.ts): neither is a target. */
  | { kind: 'sharedSerial'; serialNumber: string; reason: string }
  /** A link given answered with nothing the core could identify. */
  | { kind: 'noAnswer'; link: string; error: string | null };

export interface ResolvedTargetsView {
  targets: JobTargetView[];
  /** In the order asked: serial numbers first, then the links. */
  problems: TargetProblem[];
}

export const JOBS_CHANNELS = {
  /**
   * Turns serial numbers and links into job targets: links alone are used as given; serial numbers
   * are looked up once among the attached devices and the links given; `all` takes every attached
   * device. A serial number two attached devices claim is no target (the shared-serial rule).
   */
  'jobs.resolveTargets': query(
    z
      .object({
        serialNumbers: z.array(serialNumber).max(1024).default([]),
        links: z.array(linkSpec).max(1024).default([]),
        all: z.boolean().default(false),
      })
      .strict(),
  ).returns<ResolvedTargetsView>(),
  /** For each serial number, whether its configuration step can run (the service is asked). */
  'jobs.readiness': query(z.object({ serialNumbers: z.array(serialNumber).min(1).max(1024) }).strict()).returns<
    ConfigurationReadinessView[]
  >(),
  /** One job per request; they run the core's concurrency at a time, one per device. */
  'jobs.start': command(z.object({ requests: z.array(jobRequest).min(1).max(1024) }).strict()).returns<JobSnapshot[]>(),
  /** The job once it has finished (done, failed or cancelled). */
  'jobs.wait': query(jobId).returns<JobSnapshot>(),
  'jobs.cancel': command(jobId).returns<boolean>(),
} as const;
export type JobsChannel = keyof typeof JOBS_CHANNELS;
