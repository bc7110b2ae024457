import { z } from 'zod';
import { deviceTypeSchema, firmwareVersionRecordSchema, type DeviceType } from '../../domain';
import { firmwareReleaseKeySchema, RELEASE_KEY_ALGORITHM } from '../../domain/files/firmware-release-key';
import type { Queryable } from '../db/database';
import { notFound } from '../http/errors';
import { fileResult, orgOperation, publicOperation, type AnyOperationSpec } from '../http/operation';
import { serialParams } from '../http/schemas';
import { registeredDevice } from './registered-device';
import { firmwareBundleBytes, latestFirmware } from '../store/firmware';
import { firmwarePatchBytes, firmwarePatchesTo } from '../store/firmware-patches';
import { firmwarePatchRecordSchema } from '../../domain/files/firmware-patch-record';
import { isActive, listReleaseKeys } from '../store/release-keys';

const typeParams = z.object({ orgId: z.string(), deviceType: deviceTypeSchema });
const patchParams = typeParams.extend({ fromVersion: z.string().min(1).max(32) });

const PATCH_HEADERS = {
  'X-Firmware-Version': 'the version the patch builds (the latest)',
  'X-Firmware-Patch-Base-Sha256': 'SHA-256 (hex) of the image the patch applies to',
  'X-Firmware-Patch-Target-Sha256': 'SHA-256 (hex) of the image the patch builds',
};

/** The signature travels inside the bundle (firmware-manifest.bin); the header only names its key. */
const FIRMWARE_HEADERS = {
  'X-Firmware-Version': 'the version in the bundle',
  'X-Firmware-Sha256': 'SHA-256 (hex) of the whole bundle',
  'X-Firmware-Release-Key-Id':
    "key id of the release key that signed the bundle's firmware manifest (firmware-manifest.bin in the zip)",
};

async function typeOfDevice(db: Queryable, orgId: string, serialNumber: string): Promise<DeviceType> {
  return (await registeredDevice(db, orgId, serialNumber)).deviceType;
}

async function latestOrThrow(db: Queryable, deviceType: DeviceType) {
  const latest = await latestFirmware(db, deviceType);
  if (!latest)
    throw notFound(
      'FIRMWARE_NOT_AVAILABLE',
      `No firmware for ${deviceType} devices has been imported into this service yet.`,
    );
  return latest;
}

async function bundleFile(db: Queryable, deviceType: DeviceType) {
  const latest = await latestOrThrow(db, deviceType);
  const body = await firmwareBundleBytes(db, deviceType, latest.version);
  if (!body)
    throw notFound(
      'FIRMWARE_NOT_AVAILABLE',
      `Firmware ${deviceType} ${latest.version} was removed while it was being read.`,
    );
  return fileResult({
    body,
    mediaType: 'application/zip',
    fileName: `${deviceType}-${latest.version}.zip`,
    headers: {
      'X-Firmware-Version': latest.version,
      'X-Firmware-Sha256': latest.sha256,
      'X-Firmware-Release-Key-Id': latest.keyId,
    },
  });
}

export const firmwareOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'devices.firmware',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/firmware',
    tag: 'Firmware',
    summary: 'The latest firmware bundle for the type of this device (zip: manifest.json and the image).',
    params: serialParams,
    mutates: false,
    response: {
      kind: 'file',
      mediaType: 'application/zip',
      description: 'The firmware bundle.',
      headers: FIRMWARE_HEADERS,
    },
    handler: async ({ db, caller, params }) =>
      bundleFile(db, await typeOfDevice(db, caller.orgId, params.serialNumber)),
  }),
  orgOperation({
    id: 'devices.firmwareVersion',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/firmware/version',
    tag: 'Firmware',
    summary: 'The version of the latest firmware for the type of this device.',
    params: serialParams,
    mutates: false,
    response: { kind: 'json', data: firmwareVersionRecordSchema, description: '{ deviceType, version }' },
    handler: async ({ db, caller, params }) => {
      const deviceType = await typeOfDevice(db, caller.orgId, params.serialNumber);
      return { deviceType, version: (await latestOrThrow(db, deviceType)).version };
    },
  }),
  orgOperation({
    id: 'devices.typeFirmwareVersion',
    method: 'GET',
    path: '/organizations/:orgId/devices/types/:deviceType/firmware/version',
    tag: 'Firmware',
    summary: 'The version of the latest firmware for a device type (SRCP, WESP, EPC, NSCP).',
    params: typeParams,
    mutates: false,
    response: { kind: 'json', data: firmwareVersionRecordSchema, description: '{ deviceType, version }' },
    handler: async ({ db, params }) => ({
      deviceType: params.deviceType,
      version: (await latestOrThrow(db, params.deviceType)).version,
    }),
  }),
  orgOperation({
    id: 'devices.typeFirmware',
    method: 'GET',
    path: '/organizations/:orgId/devices/types/:deviceType/firmware',
    tag: 'Firmware',
    summary: 'The latest firmware bundle for a device type.',
    params: typeParams,
    mutates: false,
    response: {
      kind: 'file',
      mediaType: 'application/zip',
      description: 'The firmware bundle.',
      headers: FIRMWARE_HEADERS,
    },
    handler: async ({ db, params }) => bundleFile(db, params.deviceType),
  }),
  orgOperation({
    id: 'devices.typeFirmwarePatches',
    method: 'GET',
    path: '/organizations/:orgId/devices/types/:deviceType/firmware/patches',
    tag: 'Firmware',
    summary: 'Patches to the latest firmware of a device type from the releases before it (ours).',
    description:
      'Made when a release is imported, from the three releases before it. A device that runs one of their images (baseSha256) can be sent the patch instead of the whole image; the bundle is still needed for its signed manifest.',
    params: typeParams,
    mutates: false,
    response: {
      kind: 'json',
      data: z.array(firmwarePatchRecordSchema),
      description: '[{ deviceType, fromVersion, toVersion, baseSha256, targetSha256, size }]',
    },
    handler: async ({ db, params }) =>
      firmwarePatchesTo(db, params.deviceType, (await latestOrThrow(db, params.deviceType)).version),
  }),
  orgOperation({
    id: 'devices.typeFirmwarePatch',
    method: 'GET',
    path: '/organizations/:orgId/devices/types/:deviceType/firmware/patches/:fromVersion',
    tag: 'Firmware',
    summary:
      'The patch from one release of a device type to its latest firmware (ours; format in docs/device-protocol.md).',
    params: patchParams,
    mutates: false,
    response: {
      kind: 'file',
      mediaType: 'application/octet-stream',
      description: 'The firmware patch.',
      headers: PATCH_HEADERS,
    },
    handler: async ({ db, params }) => {
      const latest = await latestOrThrow(db, params.deviceType);
      const found = await firmwarePatchBytes(db, params.deviceType, params.fromVersion, latest.version);
      if (!found) {
        throw notFound(
          'FIRMWARE_PATCH_NOT_AVAILABLE',
          `There is no patch from ${params.deviceType} ${params.fromVersion} to ${latest.version}; send the full firmware.`,
          'fromVersion',
        );
      }
      return fileResult({
        body: found.patch,
        mediaType: 'application/octet-stream',
        fileName: `${params.deviceType}-${params.fromVersion}-to-${latest.version}.patch`,
        headers: {
          'X-Firmware-Version': latest.version,
          'X-Firmware-Patch-Base-Sha256': found.record.baseSha256,
          'X-Firmware-Patch-Target-Sha256': found.record.targetSha256,
        },
      });
    },
  }),
  publicOperation({
    id: 'public.firmwareReleaseKeys',
    method: 'GET',
    path: '/firmware-release-keys',
    tag: 'Firmware',
    summary: 'The release keys this service trusts to sign firmware (Ed25519, SPKI PEM); retired keys are left out.',
    description:
      'What the firmware this service serves is signed with: a host checks a bundle with them before it touches a device. Devices get their release keys at manufacture.',
    mutates: false,
    response: {
      kind: 'json',
      data: z.array(firmwareReleaseKeySchema),
      description: '[{ keyId, name, algorithm: "Ed25519", publicKeyPem, trustedAt }]',
    },
    handler: async ({ db }) =>
      (await listReleaseKeys(db)).filter(isActive).map((key) => ({
        keyId: key.keyId,
        name: key.name,
        algorithm: RELEASE_KEY_ALGORITHM,
        publicKeyPem: key.publicKeyPem,
        trustedAt: key.trustedAt.toISOString(),
      })),
  }),
];
