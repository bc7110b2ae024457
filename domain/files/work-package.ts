import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { enrolmentGrantSchema } from '../workstation-keys';
import { deviceTypeSchema } from '../device-types';
import { decodeOrgKeyCertificate } from './config-file-org-key';
import { verifyOrganizationKey } from './config-file-signature';
import { FileFormatError } from './file-error';
import { firmwareReleaseKeySchema } from './firmware-release-key';
import {
  assembleSignedZip,
  openSignedZip,
  organizationSignedBytes,
  signedZipManifest,
  type ContainerSignerRecord,
  type SignedZipLimits,
} from './work-package-container';

/**
 * A work package: everything a laptop that never reaches the service needs to provision the
 * devices of one configuration (docs/work-packages.md). A signed container
 * (work-package-container.ts) holding the firmware bundles (and delta patches, when the service
 * offered them), each device's signed configuration file, the device list, the organization's public
 * keys (the service's root key that certifies the organization's configuration signing key, and
 * the firmware release keys it trusts), and an expiry date.
 *
 * The organization's key signs it (the key that signs its configuration files, certified by the
 * service's root key), on the service: the exporting workstation sends the manifest
 * (workPackageManifest), the service checks what it vouches for (its root key, its trusted release
 * keys, the expiry) and signs (signWorkPackageManifest), the workstation seals the file
 * (sealWorkPackage). A reader takes a package only when that chain ends in a root key it trusts
 * (verifyWorkPackageSigner): nobody but the service can say what a package grants.
 */

export const WORK_PACKAGE_FORMAT = 'provisioner-work-package/2';
/** Packages of format 1 were signed by the exporting workstation's own key, which vouched for nothing. */
const FORMER_FORMATS = {
  'provisioner-work-package/1':
    "The work package was made by an earlier version and signed by a workstation's own key, not by its organization's: this version does not take it. Export it again from a workstation signed in to the service.",
};

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
  firmware: z.array(
    z.object({ deviceType: deviceTypeSchema, version: z.string().min(1), sha256: sha256Field, file: entryName }),
  ),
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
    configFileRootKey: z.object({
      keyId: z.string().min(1),
      algorithm: z.string().min(1),
      publicKeyPem: z.string().min(1),
    }),
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

/** The organization key that signs a package, as its manifest names it: the key and the root key's certificate of it. */
export interface WorkPackageSignerKey {
  keyId: string;
  publicKeyPem: string;
  /** config-file-org-key.ts, base64. */
  certificate: string;
}

/** An organization's key where it is held (the service): its certificate, and ES256 signing with it. */
export interface OrganizationManifestSigner {
  keyId: string;
  certificate: Uint8Array;
  sign(data: Uint8Array): Uint8Array;
}

/** The signer record of an organization key, read from its certificate. */
export function workPackageSignerKeyOf(
  signer: Pick<OrganizationManifestSigner, 'keyId' | 'certificate'>,
): WorkPackageSignerKey {
  const decoded = decodeOrgKeyCertificate(signer.certificate);
  const publicKeyPem = createPublicKey({ key: Buffer.from(decoded.publicKey), format: 'der', type: 'spki' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
  return { keyId: decoded.keyId, publicKeyPem, certificate: Buffer.from(signer.certificate).toString('base64') };
}

/** The manifest's bytes for the organization's key to sign: the body checked, every file it names given. */
export function workPackageManifest(
  body: WorkPackageBody,
  files: ReadonlyMap<string, Uint8Array>,
  signer: WorkPackageSignerKey,
): Uint8Array {
  const checked = workPackageBodySchema.parse(body);
  for (const name of namedFiles(checked))
    if (!files.has(name)) throw new Error(`The work package names ${name} but it was not given.`);
  return signedZipManifest({ format: WORK_PACKAGE_FORMAT, body: checked, files, signer });
}

/** The organization key's ES256 signature of a package manifest (what the service answers). */
export function signWorkPackageManifest(
  manifestBytes: Uint8Array,
  signer: Pick<OrganizationManifestSigner, 'sign'>,
): Uint8Array {
  return signer.sign(organizationSignedBytes(manifestBytes));
}

/** The package file: the manifest, the organization's signature of it, the files. */
export function sealWorkPackage(
  manifestBytes: Uint8Array,
  signature: Uint8Array,
  files: ReadonlyMap<string, Uint8Array>,
): Uint8Array {
  return assembleSignedZip(manifestBytes, signature, files);
}

/** All three steps where the organization's key is at hand (the service's tests, and an attacker's with a key of their own). */
export function buildWorkPackage(
  body: WorkPackageBody,
  files: ReadonlyMap<string, Uint8Array>,
  signer: OrganizationManifestSigner,
): Uint8Array {
  const manifest = workPackageManifest(body, files, workPackageSignerKeyOf(signer));
  return sealWorkPackage(manifest, signWorkPackageManifest(manifest, signer), files);
}

/**
 * A manifest sent to be signed, read as the signer must read it: a package manifest of this format
 * whose body is a package's. Throws FileFormatError (WP_NOT_A_PACKAGE) saying what is wrong.
 */
export function readWorkPackageManifest(manifestBytes: Uint8Array): {
  body: WorkPackageBody;
  signer: ContainerSignerRecord;
  entries: Array<{ name: string; size: number; sha256: string }>;
} {
  const bad = (why: string): never => {
    throw new FileFormatError(
      'WP_NOT_A_PACKAGE',
      `The manifest is not a work package manifest of this version (${why}).`,
    );
  };
  let manifest: { format?: unknown; body?: unknown; entries?: unknown; signer?: unknown };
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes)) as typeof manifest;
  } catch {
    return bad('it is not JSON');
  }
  if (typeof manifest !== 'object' || manifest === null) return bad('it is not an object');
  if (manifest.format !== WORK_PACKAGE_FORMAT)
    return bad(`its format is ${JSON.stringify(manifest.format)}, not ${WORK_PACKAGE_FORMAT}`);
  const parsed = workPackageBodySchema.safeParse(manifest.body);
  if (!parsed.success)
    return bad(`${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const entries = z
    .array(z.object({ name: entryName, size: z.number().int().nonnegative(), sha256: sha256Field }))
    .safeParse(manifest.entries);
  if (!entries.success) return bad('its list of entries is not one');
  const signer = z
    .object({ keyId: z.string(), publicKeyPem: z.string(), certificate: z.string().optional() })
    .safeParse(manifest.signer);
  if (!signer.success) return bad('it names no signer');
  for (const name of namedFiles(parsed.data))
    if (!entries.data.some((e) => e.name === name)) bad(`it names ${name} but does not list it`);
  return { body: parsed.data, signer: signer.data, entries: entries.data };
}

function namedFiles(body: WorkPackageBody): string[] {
  return [
    ...body.devices.map((d) => d.configFile),
    ...body.firmware.map((f) => f.file),
    ...body.patches.map((p) => p.file),
  ];
}

/**
 * Opens a work package and checks its signature, every entry's hash and every byte of the file
 * (WP_TAMPERED), and that its body is a package's and names only files it holds. Whether the
 * package may be used here (expiry, organization, signer) is for the caller: checkWorkPackageExpiry.
 */
export function readWorkPackage(zip: Uint8Array): WorkPackage {
  const opened = openSignedZip(zip, {
    format: WORK_PACKAGE_FORMAT,
    what: 'work package',
    limits: WORK_PACKAGE_LIMITS,
    formerFormats: FORMER_FORMATS,
  });
  const parsed = workPackageBodySchema.safeParse(opened.manifest.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FileFormatError(
      'WP_NOT_A_PACKAGE',
      `The work package is signed but its contents are not readable by this version (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}). Update Provisioner, or ask for a package made by the same version.`,
    );
  }
  for (const name of namedFiles(parsed.data)) {
    if (!opened.files.has(name))
      throw new FileFormatError(
        'WP_TAMPERED',
        `The work package names ${name} but does not hold it. Do not use it: ask for a new one.`,
      );
  }
  if (typeof opened.manifest.signer.certificate !== 'string') {
    throw new FileFormatError(
      'WP_UNTRUSTED_SIGNER',
      `The work package is signed by key ${opened.manifest.signer.keyId}, which is not an organization's key: a package is signed by its organization on the service. Do not use it.`,
    );
  }
  return { body: parsed.data, signer: opened.manifest.signer, files: opened.files };
}

/**
 * Checks that the package's signer is its organization's key, certified by `rootKeyPem` (a root key
 * this laptop trusts): WP_UNTRUSTED_SIGNER otherwise, saying which link fails. Returns the
 * organization key's id.
 */
export function verifyWorkPackageSigner(opened: Pick<WorkPackage, 'body' | 'signer'>, rootKeyPem: string): string {
  const untrusted = (why: string): never => {
    throw new FileFormatError(
      'WP_UNTRUSTED_SIGNER',
      `The work package is not signed by organization ${opened.body.origin.orgId} of the service this laptop trusts (${why}). Do not use it: it was not made by that service.`,
    );
  };
  let orgKey: { orgId: string; keyId: string; publicKeyPem: string };
  try {
    orgKey = verifyOrganizationKey(new Uint8Array(Buffer.from(opened.signer.certificate ?? '', 'base64')), rootKeyPem);
  } catch (error) {
    return untrusted(
      error instanceof FileFormatError && /certified by root key/.test(error.message)
        ? 'its signing key is certified by another root key'
        : "its signing key's certificate does not verify against the trusted root key",
    );
  }
  if (orgKey.keyId !== opened.signer.keyId)
    untrusted(`the certificate is of key ${orgKey.keyId}, but key ${opened.signer.keyId} signed`);
  if (orgKey.orgId !== opened.body.origin.orgId) untrusted(`its signing key is organization ${orgKey.orgId}'s`);
  return orgKey.keyId;
}

/**
 * WP_EXPIRED once `now` is past the package's expiry; WP_NOT_YET_VALID when made more than a day
 * ahead of this clock; WP_TOO_LONG when it claims more than MAX_WORK_PACKAGE_DAYS (the service
 * signs no such package, so one is forged or broken).
 */
export function checkWorkPackageExpiry(body: Pick<WorkPackageBody, 'createdAt' | 'expiresAt'>, now: Date): void {
  if (Date.parse(body.expiresAt) - Date.parse(body.createdAt) > MAX_WORK_PACKAGE_DAYS * 86_400_000) {
    throw new FileFormatError(
      'WP_TOO_LONG',
      `The work package claims to be good from ${body.createdAt} to ${body.expiresAt}, more than the ${MAX_WORK_PACKAGE_DAYS} days a package may be. Do not use it: ask for a new one.`,
    );
  }
  if (now.getTime() >= Date.parse(body.expiresAt)) {
    throw new FileFormatError(
      'WP_EXPIRED',
      `The work package expired on ${body.expiresAt} (it is now ${now.toISOString()}). Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service.`,
    );
  }
  if (Date.parse(body.createdAt) > now.getTime() + 24 * 60 * 60 * 1000) {
    throw new FileFormatError(
      'WP_NOT_YET_VALID',
      `The work package was made on ${body.createdAt}, after this computer's time (${now.toISOString()}): check this computer's clock.`,
    );
  }
}

/** The expiry `days` after `from`; refuses a number of days that is not a whole number from 1 to MAX_WORK_PACKAGE_DAYS. */
export function workPackageExpiry(from: Date, days: number): string {
  if (!Number.isInteger(days) || days < 1 || days > MAX_WORK_PACKAGE_DAYS) {
    throw new RangeError(`A work package is good for 1 to ${MAX_WORK_PACKAGE_DAYS} days, not ${days}.`);
  }
  return new Date(from.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
}
