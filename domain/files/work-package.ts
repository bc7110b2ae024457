import { z } from 'zod';
import { enrolmentGrantSchema } from '../workstation-keys';
import { deviceTypeSchema } from '../device-types';
import { FileFormatError } from './file-error';
import { firmwareReleaseKeySchema } from './firmware-release-key';
import { buildSignedZip, openSignedZip, type ContainerSigner, type ContainerSignerRecord, type SignedZipLimits } from './work-package-container';

/**
 * A work package: everything a laptop that never reaches the service needs to provision the
 * devices of one configuration (docs/work-packages.md). A signed container
 * (work-package-container.ts) holding the firmware bundles (and delta patches, when the service
 * offered them), each device's signed configuration file, the device list, the organization's public
 * keys (the service's root key that certifies the organization's configuration signing key, and
 * the firmware release keys it trusts), and an expiry date.
 */

export const WORK_PACKAGE_FORMAT = 'provisioner-work-package/1';

/** Several bundles of up to 32 MiB each (zip-limits.ts), a configuration file per device. */
export const WORK_PACKAGE_LIMITS: SignedZipLimits = { maxZipBytes: 1024 * 1024 * 1024, maxEntries: 4096 };

/** How long a package is good for when the exporter does not say, and the most it may say. */
export const DEFAULT_WORK_PACKAGE_DAYS = 30;
export const MAX_WORK_PACKAGE_DAYS = 365;

const sha256Field = z.string().regex(/^[0-9a-f]{64}$/);
const entryName = z.string().regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/);

export const workPackageBodySchema = z.object({
  packageId: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  /** The service and organization the package was taken from: what its files and confirmations belong to. */
  origin: z.object({ serviceUrl: z.string().min(1), orgId: z.string().min(1) }),
  /** The workstation that exported it (its id, as confirmations carry it). */
  exportedBy: z.object({ workstation: z.string().min(1) }),
  configuration: z.object({ id: z.string().min(1), name: z.string() }),
  devices: z.array(
    z.object({
      serialNumber: z.string().min(1),
      deviceType: deviceTypeSchema,
      syncId: z.string().min(1),
      configFile: entryName,
      /** The firmware the service named as this device's latest when the package was made. */
      firmware: z.object({ version: z.string().min(1), sha256: sha256Field }),
    }),
  ),
  firmware: z.array(z.object({ deviceType: deviceTypeSchema, version: z.string().min(1), sha256: sha256Field, file: entryName })),
  /**
   * Delta patches to the carried firmware from earlier releases, when the service offered them:
   * `baseSha256` and `targetSha256` are of the images (as devices report them), `sha256` of the
   * patch file. A patch builds only an image the package carries, which the device verifies
   * against that bundle's signed manifest.
   */
  patches: z
    .array(
      z.object({
        deviceType: deviceTypeSchema,
        fromVersion: z.string(),
        toVersion: z.string(),
        baseSha256: sha256Field,
        targetSha256: sha256Field,
        sha256: sha256Field,
        file: entryName,
      }),
    )
    .default([]),
  keys: z.object({
    configFileRootKey: z.object({ keyId: z.string().min(1), algorithm: z.string().min(1), publicKeyPem: z.string().min(1) }),
    firmwareReleaseKeys: z.array(firmwareReleaseKeySchema),
  }),
  /**
   * The service's one-time grant, bound to this package and expiring with it: the laptop that
   * imports the package enrols its ledger key with it, and the service takes that enrolment when
   * the confirmations come back. Whoever holds the package holds the grant (docs/security.md).
   */
  enrolmentGrant: enrolmentGrantSchema.optional(),
});
export type WorkPackageBody = z.infer<typeof workPackageBodySchema>;

export interface WorkPackage {
  body: WorkPackageBody;
  signer: ContainerSignerRecord;
  /** The entries the body names (configuration files, bundles, patches), checked against their SHA-256. */
  files: Map<string, Uint8Array>;
}

export function buildWorkPackage(body: WorkPackageBody, files: ReadonlyMap<string, Uint8Array>, signer: ContainerSigner): Uint8Array {
  const checked = workPackageBodySchema.parse(body);
  for (const name of namedFiles(checked)) if (!files.has(name)) throw new Error(`The work package names ${name} but it was not given.`);
  return buildSignedZip({ format: WORK_PACKAGE_FORMAT, body: checked, files, signer });
}

function namedFiles(body: WorkPackageBody): string[] {
  return [...body.devices.map((d) => d.configFile), ...body.firmware.map((f) => f.file), ...body.patches.map((p) => p.file)];
}

/**
 * Opens a work package and checks its signature, every entry's hash and every byte of the file
 * (WP_TAMPERED), and that its body is a package's and names only files it holds. Whether the
 * package may be used here (expiry, organization, signer) is for the caller: checkWorkPackageExpiry.
 */
export function readWorkPackage(zip: Uint8Array): WorkPackage {
  const opened = openSignedZip(zip, { format: WORK_PACKAGE_FORMAT, what: 'work package', limits: WORK_PACKAGE_LIMITS });
  const parsed = workPackageBodySchema.safeParse(opened.manifest.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FileFormatError('WP_NOT_A_PACKAGE', `The work package is signed but its contents are not readable by this version (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}). Update Provisioner, or ask for a package made by the same version.`);
  }
  for (const name of namedFiles(parsed.data)) {
    if (!opened.files.has(name)) throw new FileFormatError('WP_TAMPERED', `The work package names ${name} but does not hold it. Do not use it: ask for a new one.`);
  }
  return { body: parsed.data, signer: opened.manifest.signer, files: opened.files };
}

/** WP_EXPIRED once `now` is past the package's expiry; WP_NOT_YET_VALID when made more than a day ahead of this clock. */
export function checkWorkPackageExpiry(body: Pick<WorkPackageBody, 'createdAt' | 'expiresAt'>, now: Date): void {
  if (now.getTime() >= Date.parse(body.expiresAt)) {
    throw new FileFormatError(
      'WP_EXPIRED',
      `The work package expired on ${body.expiresAt} (it is now ${now.toISOString()}). Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service.`,
    );
  }
  if (Date.parse(body.createdAt) > now.getTime() + 24 * 60 * 60 * 1000) {
    throw new FileFormatError('WP_NOT_YET_VALID', `The work package was made on ${body.createdAt}, after this computer's time (${now.toISOString()}): check this computer's clock.`);
  }
}

/** The expiry `days` after `from`; refuses a number of days that is not a whole number from 1 to MAX_WORK_PACKAGE_DAYS. */
export function workPackageExpiry(from: Date, days: number): string {
  if (!Number.isInteger(days) || days < 1 || days > MAX_WORK_PACKAGE_DAYS) {
    throw new RangeError(`A work package is good for 1 to ${MAX_WORK_PACKAGE_DAYS} days, not ${days}.`);
  }
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
}
