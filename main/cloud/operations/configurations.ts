import { z } from 'zod';
import {
  configurationRecordSchema,
  configurationStatusSchema,
  deleteResultSchema,
  pageSchema,
  type ConfigurationCreateInput,
  type ConfigurationPatchInput,
  type ConfigurationRecord,
  type ConfigurationSortOption,
  type DeviceAddInput,
  type DeviceUpdateInput,
  type Violation,
} from '../../../domain';
import { AuthError, ServiceError } from '../errors';
import { encodePathSegment as seg, type CallOptions, type RequestSpec, type Transport } from '../http';
import { walkPages, type PageOf } from '../paging';
import { listOperations } from './list-operations';

const configurationPageSchema = pageSchema(configurationRecordSchema);

export interface ConfigurationListQuery {
  Search?: string;
  SortOptions?: ConfigurationSortOption;
  Limit?: number;
  Page?: number;
}

/**
 * A dry run answers what the real call would: 400 with the validation errors it would cause, or
 * 200 with data null when it would pass; nothing changes either way. Resolves with those errors
 * (none: the change would pass). What is not a validation error (the configuration or the device
 * is not found, the device is in another configuration) throws, as the real call would.
 */
async function dryRun(t: Transport, spec: RequestSpec, call?: CallOptions): Promise<Violation[]> {
  try {
    await t.json(spec, z.null(), call);
    return [];
  } catch (err) {
    if (err instanceof ServiceError && !(err instanceof AuthError) && err.httpStatus === 400 && err.errors.length > 0) {
      return err.errors.map((e) => ({ code: e.code, message: e.message, field: e.field ?? '' }));
    }
    throw err;
  }
}

/** Configurations and the devices in them. */
export function configurationOperations(t: Transport) {
  const byId = (id: string): string => `/configurations/${seg(id)}`;
  const device = (id: string, serialNumber: string): string => `${byId(id)}/devices/${seg(serialNumber)}`;
  return {
    /** listAll: every configuration, page by page (at most 30 per request). */
    ...listOperations<
      ConfigurationListQuery,
      { Limit: number; Page: number },
      PageOf<ConfigurationRecord>,
      ConfigurationRecord
    >(t, '/configurations', configurationPageSchema, {
      walk: walkPages,
      at: (Page, Limit) => ({ Limit, Page }),
    }),
    create: (payload: ConfigurationCreateInput, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/configurations', body: payload, safeToRepeat: false },
        configurationRecordSchema,
        call,
      ),
    get: (id: string, call?: CallOptions) =>
      t.json({ method: 'GET', path: byId(id), safeToRepeat: true }, configurationRecordSchema, call),
    delete: (id: string, call?: CallOptions) =>
      t.json({ method: 'DELETE', path: byId(id), safeToRepeat: false }, deleteResultSchema, call),
    update: (id: string, patch: ConfigurationPatchInput, call?: CallOptions) =>
      t.json({ method: 'PATCH', path: byId(id), body: patch, safeToRepeat: false }, configurationRecordSchema, call),
    /** PATCH with dryRun=true: the validation errors the change would cause; nothing changes. */
    updateDryRun: (id: string, patch: ConfigurationPatchInput, call?: CallOptions) =>
      dryRun(t, { method: 'PATCH', path: byId(id), query: { dryRun: true }, body: patch, safeToRepeat: true }, call),
    /** GET configurations/validate/{id}: complete, or the validation errors in the way. */
    validate: (id: string, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: `/configurations/validate/${seg(id)}`, safeToRepeat: true },
        configurationStatusSchema,
        call,
      ),
    /** Answers the configuration with the device in it. */
    addDevice: (id: string, payload: DeviceAddInput, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: `${byId(id)}/devices`, body: payload, safeToRepeat: false },
        configurationRecordSchema,
        call,
      ),
    addDeviceDryRun: (id: string, payload: DeviceAddInput, call?: CallOptions) =>
      dryRun(
        t,
        { method: 'POST', path: `${byId(id)}/devices`, query: { dryRun: true }, body: payload, safeToRepeat: true },
        call,
      ),
    /** Answers the configuration without the device. */
    removeDevice: (id: string, serialNumber: string, call?: CallOptions) =>
      t.json(
        { method: 'DELETE', path: device(id, serialNumber), safeToRepeat: false },
        configurationRecordSchema,
        call,
      ),
    /** Answers the configuration with the device changed. */
    updateDevice: (id: string, serialNumber: string, patch: DeviceUpdateInput, call?: CallOptions) =>
      t.json(
        { method: 'PATCH', path: device(id, serialNumber), body: patch, safeToRepeat: false },
        configurationRecordSchema,
        call,
      ),
    updateDeviceDryRun: (id: string, serialNumber: string, patch: DeviceUpdateInput, call?: CallOptions) =>
      dryRun(
        t,
        { method: 'PATCH', path: device(id, serialNumber), query: { dryRun: true }, body: patch, safeToRepeat: true },
        call,
      ),
  };
}
