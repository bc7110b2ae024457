import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CONFIG_FILE_FORMAT, decodeConfigFile, encodeConfigFile } from '../../../../domain/files/config-file';
import type { ConfigFileSigner } from '../../../../domain/files/config-file-content';
import {
  generateSigningKeyPair,
  rootKeyFingerprint,
  type SigningKeyPair,
} from '../../../../domain/files/config-file-signature';
import { buildWorkPackage, type WorkPackageBody } from '../../../../domain/files/work-package';
import { readFirmwareBundle, sha256Hex } from '../../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { createFirmwarePatch } from '../../../../domain/files/firmware-patch';
import { FirmwareCache } from '../../../../main/engine/cache/firmware-cache';
import { ConfigFileStore } from '../../../../main/engine/jobs/config-file-store';
import { SigningKeyStore } from '../../../../main/engine/jobs/signing-key-store';
import { nextSequence, organizationSigner } from '../../../fixtures/config-files';
import { signedTestBundle, testReleaseKey } from '../../../fixtures/release-key';

/** A service's identity as a work package carries it: its URL, organization, root key and release key. */
export const SERVICE_URL = 'https://provisioning.example.test';
export const ORG_ID = 'plant-org';

/** A service's root key, and the organization key it certifies, which signs the organization's packages (as the service does). */
export interface PackageWorld {
  root: SigningKeyPair;
  signer: ConfigFileSigner;
}

/** A service of its own (a fresh root key) and its organization `orgId`'s key. */
export function packageWorld(orgId: string = ORG_ID): PackageWorld {
  const root = generateSigningKeyPair();
  return { root, signer: organizationSigner(root, orgId) };
}

/** The same service's key of another organization: a laptop of that one could sign with it. */
export function otherOrganizationOf(world: PackageWorld, orgId: string): PackageWorld {
  return { root: world.root, signer: organizationSigner(world.root, orgId) };
}

/** The fingerprint a technician gives a laptop that has no root key yet (package import --root-fingerprint). */
export function rootFingerprintOf(world: PackageWorld): string {
  return rootKeyFingerprint(world.root.publicKeyPem);
}

export function configFileFor(
  world: PackageWorld,
  serialNumber: string,
  deviceType: string,
  options: { sequence?: number; orgId?: string } = {},
): Uint8Array {
  const orgId = options.orgId ?? ORG_ID;
  return encodeConfigFile(
    {
      format: CONFIG_FILE_FORMAT,
      syncId: randomUUID(),
      serialNumber,
      deviceType,
      orgId,
      sequence: options.sequence ?? nextSequence(),
      configurationId: randomUUID(),
      blank: false,
      issuedAt: new Date().toISOString(),
      device: { role: 'Receiver' },
      peers: [],
      safety: { timeoutConfiguration: '500ms' },
    },
    organizationSigner(world.root, orgId),
  );
}

/** A package of two devices (an EPC and an SRCP, firmware 1.1.0), as export makes one; `change` edits the body before signing. */
export function makePackage(
  world: PackageWorld,
  options: {
    now?: Date;
    days?: number;
    orgId?: string;
    configFiles?: Record<string, Uint8Array>;
    /** A patch to the EPC image from an EPC 1.0.0 image, or to `patchTarget` when given (an image the package does not carry). */
    withPatch?: { patchTarget?: Uint8Array };
    change?: (body: WorkPackageBody) => void;
  } = {},
): { bytes: Uint8Array; body: WorkPackageBody; files: Map<string, Uint8Array> } {
  const now = options.now ?? new Date();
  const files = new Map<string, Uint8Array>();
  const devices: WorkPackageBody['devices'] = [];
  const firmware: WorkPackageBody['firmware'] = [];
  for (const [serialNumber, deviceType] of [
    ['EPC000101', 'EPC'],
    ['SRCP000101', 'SRCP'],
  ] as const) {
    const bundle = signedTestBundle(deviceType, '1.1.0');
    const sha256 = sha256Hex(bundle);
    const file = `firmware/${deviceType}-1.1.0.zip`;
    files.set(file, bundle);
    firmware.push({ deviceType, version: '1.1.0', sha256, file });
    const config =
      options.configFiles?.[serialNumber] ??
      configFileFor(world, serialNumber, deviceType, { orgId: options.orgId ?? ORG_ID });
    const configFile = `config-files/${serialNumber}.cbor`;
    files.set(configFile, config);
    devices.push({
      serialNumber,
      deviceType,
      syncId: decodeConfigFile(config).syncId.toLowerCase(),
      configFile,
      firmware: { version: '1.1.0', sha256 },
    });
  }
  const patches: WorkPackageBody['patches'] = [];
  if (options.withPatch) {
    const base = makeFirmwareImage('EPC', '1.0.0', 2048);
    const target = options.withPatch.patchTarget ?? readFirmwareBundle(files.get('firmware/EPC-1.1.0.zip')!).image;
    const hashes = {
      baseSha256: createHash('sha256').update(base).digest(),
      targetSha256: createHash('sha256').update(target).digest(),
    };
    const patch = createFirmwarePatch(base, target, hashes);
    files.set('patches/EPC-1.0.0-to-1.1.0.patch', patch);
    patches.push({
      deviceType: 'EPC',
      fromVersion: '1.0.0',
      toVersion: '1.1.0',
      baseSha256: hashes.baseSha256.toString('hex'),
      targetSha256: hashes.targetSha256.toString('hex'),
      sha256: sha256Hex(patch),
      file: 'patches/EPC-1.0.0-to-1.1.0.patch',
    });
  }
  const body: WorkPackageBody = {
    packageId: randomUUID(),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (options.days ?? 7) * 86_400_000).toISOString(),
    origin: { serviceUrl: SERVICE_URL, orgId: options.orgId ?? ORG_ID },
    exportedBy: { workstation: 'office-workstation-1' },
    configuration: { id: randomUUID(), name: 'Loader 7 remote (ISM)' },
    devices,
    firmware,
    patches,
    keys: {
      configFileRootKey: { keyId: world.root.keyId, algorithm: 'ES256', publicKeyPem: world.root.publicKeyPem },
      firmwareReleaseKeys: [
        {
          keyId: testReleaseKey.keyId,
          name: 'test release key',
          algorithm: 'Ed25519',
          publicKeyPem: testReleaseKey.publicKeyPem,
          trustedAt: now.toISOString(),
        },
      ],
    },
  };
  options.change?.(body);
  return { bytes: buildWorkPackage(body, files, world.signer), body, files };
}

/** The stores a workstation's jobs read without the service, under `dir`, for the package's account. */
export function plantStores(dir: string) {
  return {
    cache: new FirmwareCache({ dir: join(dir, 'firmware-cache') }),
    configFiles: new ConfigFileStore({ dir: join(dir, 'config-files') }),
    signingKeys: new SigningKeyStore({ dir: join(dir, 'keys') }),
    recordDir: join(dir, 'imported'),
  };
}
