import { z } from 'zod';
import {
  deviceRecordSchema,
  deviceReleasedSchema,
  firmwareVersionRecordSchema,
  pageSchema,
  type ConfigurationConfirmationInput,
  type DeviceRecord,
  type DeviceType,
  type FirmwareConfirmationInput,
} from '../../../domain';
import { issuedSyncIdSchema } from '../../../domain/issued-sync-id';
import { collectBody, saveBody, type DownloadTarget, type DownloadedFile } from '../download';
import { encodePathSegment as seg, type CallOptions, type RequestSpec, type Transport } from '../http';
import { walkPages, type PageOf } from '../paging';
import { listOperations } from './list-operations';

const devicePageSchema = pageSchema(deviceRecordSchema);

const keyHeader = (idempotencyKey: string | undefined): Record<string, string> =>
  idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};

export interface DeviceListQuery {
  limit?: number;
  page?: number;
  /** Text over name, serial number and other searchable fields; not with `serial`. */
  search?: string;
  /** One serial number; not with `search`. */
  serial?: string;
  /** Only registered devices that are in no configuration. */
  configurableOnly?: boolean;
}

/** A file held in memory (for callers that verify it before anything touches a disk or a device). */
export interface FetchedFile {
  bytes: Uint8Array;
  /** `X-Config-File-Sync-Id`, on configuration file downloads. */
  syncId: string | undefined;
  headers: Headers;
}

/** Registered devices: listing, registration, rename and image, the files they need, and the confirmations. */
export function deviceOperations(t: Transport) {
  const bySerial = (serialNumber: string): string => `/devices/${seg(serialNumber)}`;
  const get = (path: string): RequestSpec => ({
    method: 'GET',
    path,
    safeToRepeat: true,
    headers: { accept: 'application/octet-stream, application/cbor, application/zip, */*' },
  });
  const download = (path: string, target: DownloadTarget, call: CallOptions = {}): Promise<DownloadedFile> =>
    t.stream(get(path), call, (body) => saveBody(body, target));
  const fetchFile = (path: string, call: CallOptions = {}): Promise<FetchedFile> =>
    t.stream(get(path), call, (body) => collectBody(body));
  const paths = {
    firmware: (serialNumber: string) => `${bySerial(serialNumber)}/firmware`,
    firmwareByType: (deviceType: DeviceType) => `/devices/types/${seg(deviceType)}/firmware`,
    configurationFile: (serialNumber: string) => `${bySerial(serialNumber)}/configuration-file`,
    blankConfigurationFile: (serialNumber: string) => `${bySerial(serialNumber)}/configuration-file/blank`,
  };
  return {
    ...listOperations<DeviceListQuery, { limit: number; page: number }, PageOf<DeviceRecord>, DeviceRecord>(
      t,
      '/devices',
      devicePageSchema,
      {
        walk: walkPages,
        at: (page, limit) => ({ limit, page }),
      },
    ),
    /** POST devices: claims a known serial number into the organization. */
    register: (input: { serialNumber: string; name: string; deviceImage?: string }, call?: CallOptions) =>
      t.json(
        {
          method: 'POST',
          path: '/devices',
          query: { name: input.name, serialNumber: input.serialNumber },
          body: input.deviceImage === undefined ? {} : { deviceImage: input.deviceImage },
          safeToRepeat: false,
        },
        deviceRecordSchema,
        call,
      ),
    /** PATCH devices/{serialNumber}: rename, replace the image, or delete it. */
    update: (
      serialNumber: string,
      change: { name?: string; deviceImage?: string; deleteImage?: boolean },
      call?: CallOptions,
    ) =>
      t.json(
        {
          method: 'PATCH',
          path: bySerial(serialNumber),
          query: { name: change.name, deleteImage: change.deleteImage },
          body: change.deviceImage === undefined ? {} : { deviceImage: change.deviceImage },
          safeToRepeat: false,
        },
        deviceRecordSchema,
        call,
      ),
    /** DELETE devices/{serialNumber} (ours): gives the device up, so another organization can register it. */
    release: (serialNumber: string, call?: CallOptions) =>
      t.json({ method: 'DELETE', path: bySerial(serialNumber), safeToRepeat: false }, deviceReleasedSchema, call),
    firmwareVersion: (serialNumber: string, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: `${paths.firmware(serialNumber)}/version`, safeToRepeat: true },
        firmwareVersionRecordSchema,
        call,
      ),
    firmwareVersionByType: (deviceType: DeviceType, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: `${paths.firmwareByType(deviceType)}/version`, safeToRepeat: true },
        firmwareVersionRecordSchema,
        call,
      ),
    /** The latest firmware bundle for this device, streamed to `target.path` (temp file, then rename). */
    downloadFirmware: (serialNumber: string, target: DownloadTarget, call?: CallOptions) =>
      download(paths.firmware(serialNumber), target, call),
    downloadFirmwareByType: (deviceType: DeviceType, target: DownloadTarget, call?: CallOptions) =>
      download(paths.firmwareByType(deviceType), target, call),
    fetchFirmware: (serialNumber: string, call?: CallOptions) => fetchFile(paths.firmware(serialNumber), call),
    fetchFirmwareByType: (deviceType: DeviceType, call?: CallOptions) =>
      fetchFile(paths.firmwareByType(deviceType), call),
    /** The device's configuration file (CBOR); `syncId` carries the X-Config-File-Sync-Id header. */
    downloadConfigurationFile: (serialNumber: string, target: DownloadTarget, call?: CallOptions) =>
      download(paths.configurationFile(serialNumber), target, call),
    fetchConfigurationFile: (serialNumber: string, call?: CallOptions) =>
      fetchFile(paths.configurationFile(serialNumber), call),
    downloadBlankConfigurationFile: (serialNumber: string, target: DownloadTarget, call?: CallOptions) =>
      download(paths.blankConfigurationFile(serialNumber), target, call),
    fetchBlankConfigurationFile: (serialNumber: string, call?: CallOptions) =>
      fetchFile(paths.blankConfigurationFile(serialNumber), call),
    /** GET devices/{serialNumber}/sync-ids/{syncId} (ours): what the file of that syncId set on the device. */
    issuedSyncId: (serialNumber: string, syncId: string, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: `${bySerial(serialNumber)}/sync-ids/${seg(syncId)}`, safeToRepeat: true },
        issuedSyncIdSchema,
        call,
      ),
    /**
     * Confirmations are safe to repeat: the service records one per (device, kind, payload) and
     * answers a replay like the first call; with an `idempotencyKey` (the same on every retry of
     * one confirmation: the outbox sends its entry id) it records the key's request exactly once.
     * Prefer sending them through the outbox.
     */
    confirmApplyFirmware: (
      serialNumber: string,
      payload: FirmwareConfirmationInput,
      call?: CallOptions,
      idempotencyKey?: string,
    ) =>
      t.json(
        {
          method: 'POST',
          path: `${bySerial(serialNumber)}/confirm-apply-firmware`,
          body: payload,
          safeToRepeat: true,
          headers: keyHeader(idempotencyKey),
        },
        z.boolean(),
        call,
      ),
    confirmApplyConfiguration: (
      serialNumber: string,
      payload: ConfigurationConfirmationInput,
      call?: CallOptions,
      idempotencyKey?: string,
    ) =>
      t.json(
        {
          method: 'POST',
          path: `${bySerial(serialNumber)}/confirm-apply-configuration`,
          body: payload,
          safeToRepeat: true,
          headers: keyHeader(idempotencyKey),
        },
        z.boolean(),
        call,
      ),
  };
}
