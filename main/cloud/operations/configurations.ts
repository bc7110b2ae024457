import {
  configurationRecordSchema,
  configurationStatusSchema,
  deleteResultSchema,
  dryRunResultSchema,
  pageSchema,
  type ConfigurationCreateInput,
  type ConfigurationPatchInput,
  type ConfigurationRecord,
  type ConfigurationSortOption,
  type DeviceAddInput,
  type DeviceUpdateInput,
} from '../../../domain';
import { encodePathSegment as seg, type CallOptions, type Transport } from '../http';
import { walkPages, type WalkOptions } from '../paging';

const configurationPageSchema = pageSchema(configurationRecordSchema);

export interface ConfigurationListQuery {
  Search?: string;
  SortOptions?: ConfigurationSortOption;
  Limit?: number;
  Page?: number;
}

/** Configurations and the devices in them. */
export function configurationOperations(t: Transport) {
  const byId = (id: string): string => `/configurations/${seg(id)}`;
  const device = (id: string, serialNumber: string): string => `${byId(id)}/devices/${seg(serialNumber)}`;
  return {
    list: (query: ConfigurationListQuery = {}, call?: CallOptions) =>
      t.json({ method: 'GET', path: '/configurations', query: { ...query }, safeToRepeat: true }, configurationPageSchema, call),
    /** Every configuration, page by page (at most 30 per request). */
    listAll: (query: Omit<ConfigurationListQuery, 'Limit' | 'Page'> = {}, options: WalkOptions & CallOptions = {}) =>
      walkPages<ConfigurationRecord>(
        (Page, Limit) =>
          t.json({ method: 'GET', path: '/configurations', query: { ...query, Limit, Page }, safeToRepeat: true }, configurationPageSchema, options),
        options,
      ),
    create: (payload: ConfigurationCreateInput, call?: CallOptions) =>
      t.json({ method: 'POST', path: '/configurations', body: payload, safeToRepeat: false }, configurationRecordSchema, call),
    get: (id: string, call?: CallOptions) => t.json({ method: 'GET', path: byId(id), safeToRepeat: true }, configurationRecordSchema, call),
    delete: (id: string, call?: CallOptions) => t.json({ method: 'DELETE', path: byId(id), safeToRepeat: false }, deleteResultSchema, call),
    update: (id: string, patch: ConfigurationPatchInput, call?: CallOptions) =>
      t.json({ method: 'PATCH', path: byId(id), body: patch, safeToRepeat: false }, configurationRecordSchema, call),
    /** PATCH with dryRun=true: the violations the change would cause; nothing changes. */
    updateDryRun: (id: string, patch: ConfigurationPatchInput, call?: CallOptions) =>
      t.json({ method: 'PATCH', path: byId(id), query: { dryRun: true }, body: patch, safeToRepeat: true }, dryRunResultSchema, call),
    /** GET configurations/validate/{id}: complete, or the validation errors in the way. */
    validate: (id: string, call?: CallOptions) =>
      t.json({ method: 'GET', path: `/configurations/validate/${seg(id)}`, safeToRepeat: true }, configurationStatusSchema, call),
    /** Answers the configuration with the device in it. */
    addDevice: (id: string, payload: DeviceAddInput, call?: CallOptions) =>
      t.json({ method: 'POST', path: `${byId(id)}/devices`, body: payload, safeToRepeat: false }, configurationRecordSchema, call),
    addDeviceDryRun: (id: string, payload: DeviceAddInput, call?: CallOptions) =>
      t.json({ method: 'POST', path: `${byId(id)}/devices`, query: { dryRun: true }, body: payload, safeToRepeat: true }, dryRunResultSchema, call),
    /** Answers the configuration without the device. */
    removeDevice: (id: string, serialNumber: string, call?: CallOptions) =>
      t.json({ method: 'DELETE', path: device(id, serialNumber), safeToRepeat: false }, configurationRecordSchema, call),
    /** Answers the configuration with the device changed. */
    updateDevice: (id: string, serialNumber: string, patch: DeviceUpdateInput, call?: CallOptions) =>
      t.json({ method: 'PATCH', path: device(id, serialNumber), body: patch, safeToRepeat: false }, configurationRecordSchema, call),
    updateDeviceDryRun: (id: string, serialNumber: string, patch: DeviceUpdateInput, call?: CallOptions) =>
      t.json(
        { method: 'PATCH', path: device(id, serialNumber), query: { dryRun: true }, body: patch, safeToRepeat: true },
        dryRunResultSchema,
        call,
      ),
  };
}
