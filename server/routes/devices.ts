import { z } from 'zod';
import {
  deviceImageBodySchema,
  deviceListQuerySchema,
  deviceRecordSchema,
  deviceRegisterQuerySchema,
  deviceReleasedSchema,
  deviceRenameQuerySchema,
  validateDeviceRename,
} from '../../domain';
import { conflict, notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { JsonText, orgOperation, type AnyOperationSpec } from '../http/operation';
import { pageOf, pageResponse } from '../http/page';
import { orgParams, serialParams } from '../http/schemas';
import { invalid } from '../http/validation';
import { deviceNotFound, registeredDevice } from './registered-device';
import {
  getDeviceRecord,
  insertDevice,
  listDeviceRecords,
  registrationOf,
  releaseDevice,
  updateDevice,
} from '../store/devices';
import { getManufacturingRecord } from '../store/manufacturing';
import type { Queryable } from '../db/database';
import { readThrough } from '../cache/read-cache';

/**
 * The interface puts deviceImage "in the body" without saying how. Accepted: a bare JSON string
 * (a data URL such as "data:image/png;base64,..." or bare base64), or { "deviceImage": "..." },
 * or no body. The image is stored as sent; the domain limits its length.
 */
export const deviceImageBody = z.preprocess(
  (body) => (typeof body === 'string' ? { deviceImage: body } : body),
  deviceImageBodySchema,
);

const IMAGE_AS_STRING = {
  type: 'string',
  description: 'The deviceImage itself: a data URL (data:image/png;base64,...) or base64.',
} as const;

const recordOrThrow = (db: Queryable, orgId: string, serialNumber: string) =>
  foundOr(getDeviceRecord(db, orgId, serialNumber), () => deviceNotFound(serialNumber));

export const deviceOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'devices.list',
    method: 'GET',
    path: '/organizations/:orgId/devices',
    tag: 'Devices',
    summary:
      'Registered devices of the organization: search (name, serial number, model, type) or serial (one serial number), configurableOnly (in no configuration), paged (limit, page from 1).',
    params: orgParams,
    query: deviceListQuerySchema,
    mutates: false,
    response: pageResponse(deviceRecordSchema),
    // Through the read cache, as the configuration lists: a commit that writes its tables drops it
    // (server/cache/read-cache.ts). Kept as the JSON text it is sent as: a page is serialised once
    // per change, not once per request.
    handler: async ({ db, ctx, caller, query }) =>
      readThrough(ctx, db, `devices/${caller.orgId}/${JSON.stringify(query)}`, async () => {
        const { items, totalCount } = await listDeviceRecords(db, caller.orgId, query);
        return new JsonText(JSON.stringify(pageOf(items, query, totalCount)));
      }),
  }),
  orgOperation({
    id: 'devices.register',
    method: 'POST',
    path: '/organizations/:orgId/devices',
    tag: 'Devices',
    summary:
      'Registers a device: claims a serial number the manufacturing records know into the organization, with a name and an optional image.',
    params: orgParams,
    query: deviceRegisterQuerySchema,
    body: deviceImageBody,
    bodyOptional: true,
    bodyAlsoAccepts: IMAGE_AS_STRING,
    mutates: true,
    response: { kind: 'json', status: 201, data: deviceRecordSchema, description: 'The registered device.' },
    handler: async ({ db, caller, query, body }) => {
      const manufactured = await getManufacturingRecord(db, query.serialNumber);
      if (!manufactured) {
        throw notFound(
          'SERIAL_NUMBER_UNKNOWN',
          `No device with serial number ${query.serialNumber} was manufactured: check the number on the device label.`,
          'serialNumber',
        );
      }
      const holder = await registrationOf(db, query.serialNumber);
      if (holder === caller.orgId)
        throw conflict(
          'DEVICE_ALREADY_REGISTERED',
          `Device ${query.serialNumber} is already registered in this organization.`,
          'serialNumber',
        );
      if (holder !== undefined) {
        throw conflict(
          'DEVICE_REGISTERED_ELSEWHERE',
          `Device ${query.serialNumber} is registered in another organization: it must be released there first.`,
          'serialNumber',
        );
      }
      await insertDevice(db, {
        serialNumber: query.serialNumber,
        orgId: caller.orgId,
        name: query.name,
        image: body?.deviceImage ?? null,
      });
      return recordOrThrow(db, caller.orgId, query.serialNumber);
    },
  }),
  orgOperation({
    id: 'devices.update',
    method: 'PATCH',
    path: '/organizations/:orgId/devices/:serialNumber',
    tag: 'Devices',
    summary: 'Renames a device (name), replaces its image (deviceImage in the body) or deletes it (deleteImage=true).',
    params: serialParams,
    query: deviceRenameQuerySchema,
    body: deviceImageBody,
    bodyOptional: true,
    bodyAlsoAccepts: IMAGE_AS_STRING,
    mutates: true,
    response: { kind: 'json', data: deviceRecordSchema, description: 'The updated device.' },
    handler: async ({ db, caller, params, query, body }) => {
      const image = body ?? {};
      const violations = validateDeviceRename(query, image);
      if (violations.length > 0) throw invalid(violations);
      await registeredDevice(db, caller.orgId, params.serialNumber);
      await updateDevice(db, {
        serialNumber: params.serialNumber,
        name: query.name,
        image: query.deleteImage ? null : image.deviceImage,
      });
      return recordOrThrow(db, caller.orgId, params.serialNumber);
    },
  }),
  orgOperation({
    id: 'devices.release',
    method: 'DELETE',
    path: '/organizations/:orgId/devices/:serialNumber',
    tag: 'Devices',
    summary:
      'Releases a device the organization holds (sold on, returned): its registration, name, image and apply history go, and another organization may register it.',
    description:
      'A device in a configuration is not released (409 DEVICE_IN_CONFIGURATION): remove it from the configuration first.',
    params: serialParams,
    mutates: true,
    response: { kind: 'json', data: deviceReleasedSchema, description: '{ serialNumber, released: true }' },
    handler: async ({ db, caller, params }) => {
      const outcome = await releaseDevice(db, caller.orgId, params.serialNumber);
      if (outcome.released) return { serialNumber: params.serialNumber, released: true };
      if (outcome.reason === 'not-registered') throw deviceNotFound(params.serialNumber);
      throw conflict(
        'DEVICE_IN_CONFIGURATION',
        `Device ${params.serialNumber} is in configuration "${outcome.configurationName}": remove it from that configuration first, then release it.`,
        'serialNumber',
      );
    },
  }),
];
