import { join } from 'node:path';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { readFirmwareBundle, verifyFirmwareBundleSignature } from '../../../domain/files/firmware-bundle';
import { parseFirmwarePatchHeader } from '../../../domain/files/firmware-patch';
import { releaseKeyFromPem } from '../../../domain/files/firmware-release-key';
import { checkWorkPackageExpiry, readWorkPackage, type WorkPackage, type WorkPackageBody } from '../../../domain/files/work-package';
import { nodeFileSystem, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import type { FirmwareCache } from '../cache/firmware-cache';
import type { ConfigFileStore } from '../jobs/config-file-store';
import type { SigningKeyStore } from '../jobs/signing-key-store';
import { WorkPackageError } from './errors';

/**
 * Puts a work package into this workstation's caches, so that every device in it can be
 * provisioned with the network unplugged: the firmware bundles into the firmware cache (as served
 * by the package's service and organization, which is what the offline fallback looks for), each
 * configuration file into the account's store, the root key and release keys where the jobs look
 * for them when the service cannot be asked.
 *
 * Nothing is written until everything is checked: the file (signature, every byte), the expiry,
 * the organization, the signer when one is required, the root key against the one already known
 * here, and each file against the package's keys as the device will check it.
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
  /** The key id of the workstation that must have signed it (told by whoever exported it); any signer when absent. */
  requiredSigner?: string;
  now?: () => Date;
  fs?: FileSystem;
}

export interface ImportedPackage {
  body: WorkPackageBody;
  signerKeyId: string;
  firmware: Array<{ deviceType: string; version: string; sha256: string }>;
  /** Patches the package carries, and how many of them the cache's patch store kept (all of them). */
  patches: { carried: number; kept: number };
  configFiles: Array<{ serialNumber: string; syncId: string; kept: 'imported' | 'newer-already-kept' }>;
}

/** The checks on a work package that need no cache: returns the opened package when it may be used here. */
export function checkWorkPackage(bytes: Uint8Array, options: Pick<ImportPackageOptions, 'account' | 'requiredSigner' | 'now'>): WorkPackage {
  const opened = readWorkPackage(bytes);
  const { body } = opened;
  checkWorkPackageExpiry(body, (options.now ?? (() => new Date()))());
  if (body.origin.orgId !== options.account.orgId || body.origin.serviceUrl !== options.account.serviceUrl) {
    throw new WorkPackageError(
      'WP_WRONG_ORGANIZATION',
      `This work package is for organization ${body.origin.orgId} at ${body.origin.serviceUrl}, but this workstation works for organization ${options.account.orgId} at ${options.account.serviceUrl}. Import it on a workstation of that organization (or log in to it).`,
    );
  }
  if (options.requiredSigner !== undefined && options.requiredSigner.toLowerCase() !== opened.signer.keyId) {
    throw new WorkPackageError(
      'WP_UNTRUSTED_SIGNER',
      `This work package was signed by workstation key ${opened.signer.keyId}, not by ${options.requiredSigner} as required. Ask whoever exported it which key they signed with.`,
    );
  }
  return opened;
}

export async function importWorkPackage(options: ImportPackageOptions): Promise<ImportedPackage> {
  const opened = checkWorkPackage(options.bytes, options);
  const { body, files } = opened;
  const rootKeyPem = body.keys.configFileRootKey.publicKeyPem;
  const known = await options.signingKeys.stored();
  if (known && known.publicKeyPem.trim() !== rootKeyPem.trim()) {
    throw new WorkPackageError(
      'WP_ROOT_KEY_MISMATCH',
      `This work package carries another root key (${body.keys.configFileRootKey.keyId}) than the one this workstation already knows from ${body.origin.serviceUrl} (${known.keyId}). Do not use it: it was not made by that service, or the service's key changed; ask for a new package.`,
    );
  }

  // Every file checked as the device will check it, before anything is written.
  const keyring = { keys: body.keys.firmwareReleaseKeys.map((k) => releaseKeyFromPem(k.publicKeyPem, k.name)), retiredKeyIds: [] };
  const bundles = body.firmware.map((entry) => {
    const bytes = files.get(entry.file)!;
    const bundle = readFirmwareBundle(bytes, { deviceType: entry.deviceType, version: entry.version });
    verifyFirmwareBundleSignature(bundle, keyring);
    return { entry, bytes, image: bundle.imageSha256 };
  });
  const patches = body.patches.map((entry) => {
    const bytes = files.get(entry.file)!;
    const header = parseFirmwarePatchHeader(bytes);
    const joins = Buffer.from(header.baseSha256).toString('hex') === entry.baseSha256 && Buffer.from(header.targetSha256).toString('hex') === entry.targetSha256;
    // A patch may only build an image the package carries (whose signed manifest the device checks the result against).
    const builds = bundles.some(({ entry: bundle, image }) => bundle.deviceType === entry.deviceType && image === entry.targetSha256);
    if (!joins || !builds) {
      throw new FileFormatError('WP_TAMPERED', `The ${entry.deviceType} patch from ${entry.fromVersion} in the work package does not build firmware the package carries. Do not use it: ask for a new one.`);
    }
    return { entry, bytes };
  });
  const configFiles = body.devices.map((device) => {
    const bytes = files.get(device.configFile)!;
    const decoded = verifyConfigFile(bytes, { rootKeyPem, expectedSerialNumber: device.serialNumber });
    if (decoded.orgId !== body.origin.orgId || decoded.syncId.toLowerCase() !== device.syncId.toLowerCase()) {
      throw new FileFormatError('WP_TAMPERED', `The configuration file of ${device.serialNumber} in the work package is not the one its device list names. Do not use it: ask for a new one.`);
    }
    if (!body.firmware.some((f) => f.sha256 === device.firmware.sha256)) {
      throw new FileFormatError('WP_TAMPERED', `The work package names firmware for ${device.serialNumber} that it does not hold. Do not use it: ask for a new one.`);
    }
    return { device, bytes, sequence: decoded.sequence };
  });

  const importedAt = (options.now ?? (() => new Date()))().toISOString();
  await options.signingKeys.keep(body.keys.configFileRootKey, body.createdAt);
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
  for (const { entry, bytes } of patches) await options.cache.patches.put(bytes, { baseSha256: entry.baseSha256, targetSha256: entry.targetSha256 });
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
    devices: body.devices.map((d) => ({ serialNumber: d.serialNumber, syncId: d.syncId, firmwareVersion: d.firmware.version })),
    // Kept (0600) to enrol this laptop's ledger key when its confirmations go back.
    ...(body.enrolmentGrant ? { enrolmentGrant: body.enrolmentGrant } : {}),
  };
  await writeFileDurable(fs, join(options.recordDir, `${body.packageId}.json`), `${JSON.stringify(record, null, 2)}\n`);
  return {
    body,
    signerKeyId: opened.signer.keyId,
    firmware: body.firmware.map((f) => ({ deviceType: f.deviceType, version: f.version, sha256: f.sha256 })),
    patches: { carried: patches.length, kept: patches.length },
    configFiles: keptFiles,
  };
}
