import { randomUUID } from 'node:crypto';
import type { DeviceType } from '../../../domain/device-types';
import { verifyConfigFile, verifyOrganizationKey } from '../../../domain/files/config-file-signature';
import { verifyFirmwareBundleSignature } from '../../../domain/files/firmware-bundle';
import { parseFirmwarePatchHeader } from '../../../domain/files/firmware-patch';
import type { FirmwarePatchRecord } from '../../../domain/files/firmware-patch-record';
import { releaseKeyFromPem } from '../../../domain/files/firmware-release-key';
import {
  DEFAULT_WORK_PACKAGE_DAYS,
  readWorkPackage,
  sealWorkPackage,
  verifyWorkPackageSigner,
  workPackageExpiry,
  workPackageManifest,
  type WorkPackageBody,
} from '../../../domain/files/work-package';
import { sha256OfBytes } from '../../../domain/files/work-package-container';
import { ServiceError, type ServiceClient } from '../../cloud';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import { resolveFirmware } from '../../engine/cache/resolve-firmware';
import { WorkPackageError } from './errors';

/**
 * Makes a work package for one configuration while the service is reachable: each device's
 * configuration file and the firmware the service names for it (taken through the firmware cache,
 * so what is already cached is not downloaded again), the service's root key and firmware release
 * keys, and an expiry. Every file is checked against those keys before it goes in: a package never
 * carries a file the devices would refuse. The organization's key signs it, on the service, which
 * checks first what the package grants (its keys, its expiry); the file is checked against the
 * root key before it is handed back.
 */

export type PackageSourceClient = Pick<
  ServiceClient,
  'baseUrl' | 'orgId' | 'signingKey' | 'organizationSigningKey' | 'firmwareReleaseKeys'
> & {
  workPackages: Pick<ServiceClient['workPackages'], 'sign'>;
  configurations: Pick<ServiceClient['configurations'], 'listAll' | 'get' | 'validate'>;
  devices: Pick<
    ServiceClient['devices'],
    | 'listAll'
    | 'firmwareVersion'
    | 'firmwareVersionByType'
    | 'fetchFirmware'
    | 'fetchFirmwareByType'
    | 'fetchConfigurationFile'
  >;
  /** Patches between releases (ours); a service without them offers none. */
  firmwarePatches?: Pick<ServiceClient['firmwarePatches'], 'list' | 'fetch'>;
  /** Workstation keys (ours): the one-time enrolment grant the package carries. */
  workstations?: Pick<ServiceClient['workstations'], 'grant'>;
};

export interface ExportPackageOptions {
  client: PackageSourceClient;
  /** What the package's confirmations will be filed under: the account's service name and organization. */
  origin: { serviceUrl: string; orgId: string };
  cache: FirmwareCache;
  /** The configuration by name (as people know it) or by id (as the UI knows it). */
  configuration: { name: string } | { id: string };
  workstation: string;
  now?: () => Date;
  expiresInDays?: number;
  onProgress?: (line: string) => void;
}

export interface ExportedPackage {
  bytes: Uint8Array;
  body: WorkPackageBody;
  /** The organization key that signed it. */
  signerKeyId: string;
}

async function findConfiguration(client: PackageSourceClient, which: ExportPackageOptions['configuration']) {
  if ('id' in which) return client.configurations.get(which.id);
  const matches = [];
  for await (const configuration of client.configurations.listAll({ Search: which.name })) {
    if (configuration.name === which.name) matches.push(configuration);
  }
  if (matches.length === 0) {
    throw new WorkPackageError({ kind: 'noSuchConfiguration', name: which.name, orgId: client.orgId });
  }
  if (matches.length > 1) {
    throw new WorkPackageError({ kind: 'ambiguousConfiguration', name: which.name, count: matches.length });
  }
  return matches[0]!;
}

/**
 * The service's patches to this exact image, each fetched and checked against what it says it
 * joins. Patches only make installs faster: a service that offers none (or refuses the list) gives
 * a package without them; one that cannot be reached fails the export as any other file would.
 */
async function patchesTo(
  client: PackageSourceClient,
  deviceType: DeviceType,
  version: string,
  imageSha256: string,
): Promise<Array<{ record: FirmwarePatchRecord; bytes: Uint8Array }>> {
  if (!client.firmwarePatches) return [];
  let records: FirmwarePatchRecord[];
  try {
    records = await client.firmwarePatches.list(deviceType);
  } catch (error) {
    if (error instanceof ServiceError && !error.retryable) return [];
    throw error;
  }
  const carried: Array<{ record: FirmwarePatchRecord; bytes: Uint8Array }> = [];
  for (const record of records.filter((r) => r.toVersion === version && r.targetSha256 === imageSha256)) {
    const fetched = await client.firmwarePatches.fetch(deviceType, record.fromVersion);
    const header = parseFirmwarePatchHeader(fetched.bytes);
    if (
      Buffer.from(header.baseSha256).toString('hex') !== record.baseSha256 ||
      Buffer.from(header.targetSha256).toString('hex') !== record.targetSha256
    ) {
      throw new WorkPackageError({ kind: 'patchNotAsListed', deviceType, fromVersion: record.fromVersion });
    }
    carried.push({ record, bytes: fetched.bytes });
  }
  return carried;
}

export async function exportWorkPackage(options: ExportPackageOptions): Promise<ExportedPackage> {
  const { client, cache } = options;
  const now = (options.now ?? (() => new Date()))();
  const expiresAt = workPackageExpiry(now, options.expiresInDays ?? DEFAULT_WORK_PACKAGE_DAYS);
  const configuration = await findConfiguration(client, options.configuration);
  if (configuration.devices.length === 0) {
    throw new WorkPackageError({ kind: 'emptyConfiguration', name: configuration.name });
  }
  const status = await client.configurations.validate(configuration.id);
  if (!status.complete) {
    const first = status.errors[0];
    throw new WorkPackageError({
      kind: 'configurationIncomplete',
      name: configuration.name,
      problems: status.errors.length,
      example: first?.message ?? null,
    });
  }
  const rootKey = await client.signingKey();
  const releaseKeyRecords = await client.firmwareReleaseKeys();
  const keyring = { keys: releaseKeyRecords.map((k) => releaseKeyFromPem(k.publicKeyPem, k.name)), retiredKeyIds: [] };

  const files = new Map<string, Uint8Array>();
  const devices: WorkPackageBody['devices'] = [];
  const firmware = new Map<string, WorkPackageBody['firmware'][number]>();
  const patches: WorkPackageBody['patches'] = [];
  for (const device of [...configuration.devices].sort((a, b) => a.serialNumber.localeCompare(b.serialNumber))) {
    options.onProgress?.(`${device.serialNumber}: configuration file and firmware`);
    const file = await client.devices.fetchConfigurationFile(device.serialNumber);
    const decoded = verifyConfigFile(file.bytes, {
      rootKeyPem: rootKey.publicKeyPem,
      expectedSerialNumber: device.serialNumber,
    });
    if (file.syncId !== undefined && file.syncId.toLowerCase() !== decoded.syncId.toLowerCase()) {
      throw new WorkPackageError({ kind: 'configFileSyncIdDiffers', serial: device.serialNumber });
    }
    if (decoded.orgId !== client.orgId) {
      throw new WorkPackageError({
        kind: 'configFileOtherOrganization',
        serial: device.serialNumber,
        orgId: decoded.orgId,
        expectedOrgId: client.orgId,
      });
    }
    const configFile = `config-files/${encodeURIComponent(device.serialNumber).replace(/%/g, '_')}.cbor`;
    files.set(configFile, file.bytes);

    const resolved = await resolveFirmware(cache, client, {
      deviceType: device.deviceType,
      serialNumber: device.serialNumber,
    });
    if (resolved.origin === 'offline-cache') {
      throw new WorkPackageError({
        kind: 'firmwareUnreachable',
        serial: device.serialNumber,
        notice: resolved.notice ?? '',
      });
    }
    verifyFirmwareBundleSignature(resolved.bundle, keyring);
    const sha256 = resolved.entry.sha256;
    if (!firmware.has(sha256)) {
      const name = `firmware/${resolved.entry.deviceType}-${resolved.entry.version.replace(/[^A-Za-z0-9._-]/g, '_')}-${sha256.slice(0, 12)}.zip`;
      files.set(name, resolved.bytes);
      firmware.set(sha256, {
        deviceType: resolved.entry.deviceType,
        version: resolved.entry.version,
        sha256,
        file: name,
      });
      for (const patch of await patchesTo(
        client,
        resolved.entry.deviceType,
        resolved.entry.version,
        resolved.bundle.imageSha256,
      )) {
        const patchName =
          `patches/${resolved.entry.deviceType}-${patch.record.fromVersion}-to-${patch.record.toVersion}-${patch.record.baseSha256.slice(0, 12)}.patch`.replace(
            /[^A-Za-z0-9._/-]/g,
            '_',
          );
        files.set(patchName, patch.bytes);
        const { deviceType, fromVersion, toVersion, baseSha256, targetSha256 } = patch.record;
        patches.push({
          deviceType,
          fromVersion,
          toVersion,
          baseSha256,
          targetSha256,
          sha256: sha256OfBytes(patch.bytes),
          file: patchName,
        });
      }
    }
    devices.push({
      serialNumber: device.serialNumber,
      deviceType: device.deviceType,
      syncId: decoded.syncId.toLowerCase(),
      configFile,
      firmware: { version: resolved.entry.version, sha256 },
    });
  }

  const packageId = randomUUID();
  // The laptop that imports the package may never reach the service: the grant lets it enrol its ledger key once.
  const enrolmentGrant = client.workstations ? await client.workstations.grant(packageId, expiresAt) : undefined;
  const body: WorkPackageBody = {
    packageId,
    createdAt: now.toISOString(),
    expiresAt,
    origin: options.origin,
    exportedBy: { workstation: options.workstation },
    configuration: { id: configuration.id, name: configuration.name },
    devices,
    firmware: [...firmware.values()],
    patches,
    keys: {
      configFileRootKey: { keyId: rootKey.keyId, algorithm: rootKey.algorithm, publicKeyPem: rootKey.publicKeyPem },
      firmwareReleaseKeys: releaseKeyRecords,
    },
    ...(enrolmentGrant ? { enrolmentGrant } : {}),
  };
  return signedByOrganization(client, body, files, rootKey.publicKeyPem);
}

/**
 * The organization's key signs the manifest on the service; the package is sealed here and read
 * back as an importing laptop will read it, so a package that laptop would refuse is never written.
 */
async function signedByOrganization(
  client: PackageSourceClient,
  body: WorkPackageBody,
  files: ReadonlyMap<string, Uint8Array>,
  rootKeyPem: string,
): Promise<ExportedPackage> {
  const orgKey = await client.organizationSigningKey();
  const certified = verifyOrganizationKey(new Uint8Array(Buffer.from(orgKey.certificate, 'base64')), rootKeyPem);
  if (certified.orgId !== body.origin.orgId || certified.keyId !== orgKey.keyId) {
    throw new WorkPackageError({
      kind: 'organizationKeyNotCertified',
      keyId: orgKey.keyId,
      orgId: body.origin.orgId,
      certifiedKeyId: certified.keyId,
      certifiedOrgId: certified.orgId,
    });
  }
  const manifest = workPackageManifest(body, files, {
    keyId: orgKey.keyId,
    publicKeyPem: certified.publicKeyPem,
    certificate: orgKey.certificate,
  });
  const { signature } = await client.workPackages.sign(new TextDecoder().decode(manifest));
  const bytes = sealWorkPackage(manifest, new Uint8Array(Buffer.from(signature, 'base64')), files);
  try {
    verifyWorkPackageSigner(readWorkPackage(bytes), rootKeyPem);
  } catch (error) {
    throw new WorkPackageError({
      kind: 'packageSignatureBroken',
      detail: error instanceof Error ? error.message : String(error),
    });
  }
  return { bytes, body, signerKeyId: orgKey.keyId };
}
