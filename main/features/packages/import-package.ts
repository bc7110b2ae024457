import { join } from 'node:path';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { rootKeyFingerprint, verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { readFirmwareBundle, verifyFirmwareBundleSignature } from '../../../domain/files/firmware-bundle';
import { parseFirmwarePatchHeader } from '../../../domain/files/firmware-patch';
import { releaseKeyFromPem } from '../../../domain/files/firmware-release-key';
import {
  checkWorkPackageExpiry,
  readWorkPackage,
  verifyWorkPackageSigner,
  type WorkPackage,
  type WorkPackageBody,
} from '../../../domain/files/work-package';
import { nodeFileSystem, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import type { ConfigFileStore } from '../../engine/jobs/config-file-store';
import type { SigningKeyStore } from '../../engine/jobs/signing-key-store';
import { WorkPackageError } from './errors';
import type { WorkPackageImportView } from '../../../contract/packages';

/**
 * Puts a work package into this workstation's caches, so that every device in it can be
 * provisioned with the network unplugged: the firmware bundles into the firmware cache (as served
 * by the package's service and organization, which is what the offline fallback looks for), each
 * configuration file into the account's store, the root key and release keys where the jobs look
 * for them when the service cannot be asked.
 *
 * Nothing is written until everything is checked: the file (signature, every byte), that its
 * signer is its organization's key certified by a root key this laptop trusts, the expiry, the
 * organization, and each file against the package's keys as the device will check it.
 *
 * The root key this laptop trusts is the one it kept from the service while signed in. A laptop
 * that has none (never signed in there) takes the package's only when the technician gives that
 * key's fingerprint, read off a signed-in laptop (`provisioner status`): the package itself can
 * never make a laptop trust anything.
 */

export interface ImportPackageOptions {
  bytes: Uint8Array;
  /** Who this workstation works for: the package must be for the same service and organization. */
  account: { serviceUrl: string; orgId: string };
  cache: FirmwareCache;
  configFiles: ConfigFileStore;
  signingKeys: SigningKeyStore;
  /** Where imports are recorded (one JSON file per package). */
  recordDir: string;
  /** The key id of the organization key that must have signed it; any key the trusted root certifies when absent. */
  requiredSigner?: string;
  /**
   * The root key's fingerprint (rootKeyFingerprint), as the technician typed it in lower-case hex:
   * what a laptop without a root key takes the package's root by; checked against the kept one otherwise.
   */
  rootFingerprint?: string;
  /** Imported on a laptop nobody is signed in on: recorded, and the package then names its offline account (offline-account.ts). */
  notSignedIn?: boolean;
  now?: () => Date;
  fs?: FileSystem;
}

/** What a package brought and what was kept of it; the channel's view adds the account and the login. */
export type ImportedPackage = Omit<WorkPackageImportView, 'account' | 'signedIn'>;

/**
 * The checks on an opened work package that need no cache, in this order: that it is for this
 * workstation's service and organization, that its organization's key signed it under `rootKeyPem`
 * (and is the one required, when one is), and then its expiry: nothing it says counts before its
 * signer is vouched for.
 */
export function checkWorkPackage(
  opened: WorkPackage,
  options: Pick<ImportPackageOptions, 'account' | 'requiredSigner' | 'now'> & { rootKeyPem: string },
): void {
  const { body } = opened;
  checkAccount(body, options.account);
  verifyWorkPackageSigner(opened, options.rootKeyPem);
  if (options.requiredSigner !== undefined && options.requiredSigner.toLowerCase() !== opened.signer.keyId) {
    throw new WorkPackageError({
      kind: 'packageSignerNotRequired',
      signer: opened.signer.keyId,
      required: options.requiredSigner,
    });
  }
  checkWorkPackageExpiry(body, (options.now ?? (() => new Date()))());
}

function checkAccount(body: WorkPackageBody, account: ImportPackageOptions['account']): void {
  if (body.origin.orgId !== account.orgId || body.origin.serviceUrl !== account.serviceUrl) {
    throw new WorkPackageError({
      kind: 'packageWrongOrganization',
      theirs: { orgId: body.origin.orgId, serviceUrl: body.origin.serviceUrl },
      ours: { orgId: account.orgId, serviceUrl: account.serviceUrl },
    });
  }
}

/**
 * The root key this laptop trusts for the package's account: the one kept here, or, where none is
 * kept, the package's when its fingerprint is the one the technician gave. Refuses otherwise.
 */
async function trustedRoot(
  opened: WorkPackage,
  options: ImportPackageOptions,
): Promise<{ publicKeyPem: string; adopted: boolean }> {
  const known = await options.signingKeys.stored();
  if (known) {
    if (options.rootFingerprint !== undefined && rootKeyFingerprint(known.publicKeyPem) !== options.rootFingerprint) {
      throw new WorkPackageError({
        kind: 'fingerprintNotTrustedRoot',
        given: options.rootFingerprint,
        serviceUrl: options.account.serviceUrl,
        trusted: rootKeyFingerprint(known.publicKeyPem),
      });
    }
    return { publicKeyPem: known.publicKeyPem, adopted: false };
  }
  // Read only to show the technician which root it carries; nothing in it is trusted yet.
  const carried = opened.body.keys.configFileRootKey;
  const fingerprint = rootKeyFingerprint(carried.publicKeyPem);
  if (options.rootFingerprint === undefined) {
    throw new WorkPackageError({
      kind: 'noTrustedRoot',
      serviceUrl: options.account.serviceUrl,
      orgId: options.account.orgId,
    });
  }
  if (fingerprint !== options.rootFingerprint) {
    throw new WorkPackageError({ kind: 'carriedRootNotGiven', carried: fingerprint, given: options.rootFingerprint });
  }
  return { publicKeyPem: carried.publicKeyPem, adopted: true };
}

export async function importWorkPackage(options: ImportPackageOptions): Promise<ImportedPackage> {
  const opened = readWorkPackage(options.bytes);
  checkAccount(opened.body, options.account);
  const root = await trustedRoot(opened, options);
  checkWorkPackage(opened, { ...options, rootKeyPem: root.publicKeyPem });
  const { body, files } = opened;
  const rootKeyPem = root.publicKeyPem;
  if (rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem) !== rootKeyFingerprint(rootKeyPem)) {
    throw new WorkPackageError({
      kind: 'otherRootKey',
      keyId: body.keys.configFileRootKey.keyId,
      serviceUrl: body.origin.serviceUrl,
    });
  }

  // Every file checked as the device will check it, before anything is written.
  const keyring = {
    keys: body.keys.firmwareReleaseKeys.map((k) => releaseKeyFromPem(k.publicKeyPem, k.name)),
    retiredKeyIds: [],
  };
  const bundles = body.firmware.map((entry) => {
    const bytes = files.get(entry.file)!;
    const bundle = readFirmwareBundle(bytes, { deviceType: entry.deviceType, version: entry.version });
    verifyFirmwareBundleSignature(bundle, keyring);
    return { entry, bytes, image: bundle.imageSha256 };
  });
  const patches = body.patches.map((entry) => {
    const bytes = files.get(entry.file)!;
    const header = parseFirmwarePatchHeader(bytes);
    const joins =
      Buffer.from(header.baseSha256).toString('hex') === entry.baseSha256 &&
      Buffer.from(header.targetSha256).toString('hex') === entry.targetSha256;
    // A patch may only build an image the package carries (whose signed manifest the device checks the result against).
    const builds = bundles.some(
      ({ entry: bundle, image }) => bundle.deviceType === entry.deviceType && image === entry.targetSha256,
    );
    if (!joins || !builds) {
      throw new FileFormatError(
        'WP_TAMPERED',
        `The ${entry.deviceType} patch from ${entry.fromVersion} in the work package does not build firmware the package carries. Do not use it: ask for a new one.`,
      );
    }
    return { entry, bytes };
  });
  const configFiles = body.devices.map((device) => {
    const bytes = files.get(device.configFile)!;
    const decoded = verifyConfigFile(bytes, { rootKeyPem, expectedSerialNumber: device.serialNumber });
    if (decoded.orgId !== body.origin.orgId || decoded.syncId.toLowerCase() !== device.syncId.toLowerCase()) {
      throw new FileFormatError(
        'WP_TAMPERED',
        `The configuration file of ${device.serialNumber} in the work package is not the one its device list names. Do not use it: ask for a new one.`,
      );
    }
    if (!body.firmware.some((f) => f.sha256 === device.firmware.sha256)) {
      throw new FileFormatError(
        'WP_TAMPERED',
        `The work package names firmware for ${device.serialNumber} that it does not hold. Do not use it: ask for a new one.`,
      );
    }
    return { device, bytes, sequence: decoded.sequence };
  });

  const importedAt = (options.now ?? (() => new Date()))().toISOString();
  if (root.adopted) await options.signingKeys.keep(body.keys.configFileRootKey, importedAt);
  await options.cache.releaseKeys.keep(body.origin.serviceUrl, body.keys.firmwareReleaseKeys, body.createdAt);
  const origin = { serviceUrl: body.origin.serviceUrl, orgId: body.origin.orgId };
  for (const { entry, bytes } of bundles) {
    await options.cache.put(bytes, {
      source: `work package ${body.packageId} (configuration ${body.configuration.name})`,
      origin,
      expect: { deviceType: entry.deviceType, version: entry.version, sha256: entry.sha256 },
    });
  }
  // Kept where the firmware job looks for them offline (resolveFirmware): a device running a
  // patch's base is sent the patch, not the whole image.
  for (const { entry, bytes } of patches)
    await options.cache.patches.put(bytes, { baseSha256: entry.baseSha256, targetSha256: entry.targetSha256 });
  const keptFiles: ImportedPackage['configFiles'] = [];
  for (const { device, bytes, sequence } of configFiles) {
    // A file kept here that is newer than the package's (a later package, or a download) stays:
    // the device would refuse the older one anyway.
    const kept = await options.configFiles.get(device.serialNumber);
    if (kept && decodeConfigFile(kept.bytes).sequence > sequence) {
      keptFiles.push({ serialNumber: device.serialNumber, syncId: kept.meta.syncId, kept: 'newer-already-kept' });
      continue;
    }
    await options.configFiles.put(device.serialNumber, bytes, device.syncId);
    keptFiles.push({ serialNumber: device.serialNumber, syncId: device.syncId, kept: 'imported' });
  }
  const fs = options.fs ?? nodeFileSystem;
  await fs.mkdir(options.recordDir, { recursive: true, mode: 0o700 });
  const record = {
    packageId: body.packageId,
    importedAt,
    expiresAt: body.expiresAt,
    origin: body.origin,
    configuration: body.configuration,
    signerKeyId: opened.signer.keyId,
    ...(options.notSignedIn ? { notSignedIn: true } : {}),
    devices: body.devices.map((d) => ({
      serialNumber: d.serialNumber,
      syncId: d.syncId,
      firmwareVersion: d.firmware.version,
    })),
    // Kept (0600) to enrol this laptop's ledger key when its confirmations go back.
    ...(body.enrolmentGrant ? { enrolmentGrant: body.enrolmentGrant } : {}),
  };
  await writeFileDurable(fs, join(options.recordDir, `${body.packageId}.json`), `${JSON.stringify(record, null, 2)}\n`);
  return {
    body,
    signerKeyId: opened.signer.keyId,
    rootAdopted: root.adopted,
    firmware: body.firmware.map((f) => ({ deviceType: f.deviceType, version: f.version, sha256: f.sha256 })),
    patches: { carried: patches.length, kept: patches.length },
    configFiles: keptFiles,
  };
}
