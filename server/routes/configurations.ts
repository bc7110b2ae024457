import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  configurationCreateSchema,
  configurationListQuerySchema,
  configurationPatchSchema,
  configurationRecordSchema,
  deleteResultSchema,
  deviceAddSchema,
  deviceUpdateSchema,
  dryRunQuerySchema,
  errorsOf,
  mergeConfigurationPatch,
  mergeDevicePatch,
  validateConfiguration,
  validateConfigurationSettings,
  configurationStatus,
  configurationStatusSchema,
  type ConfigurationMember,
  type ConfigurationSettings,
  type Violation,
} from '../../domain';
import { readThrough } from '../cache/read-cache';
import type { ServiceContext } from '../context';
import { configurationContext } from '../configurations/context';
import { refreshSettingsHashes } from '../configurations/files';
import { configurationRecord, membersOf, settingsOf } from '../configurations/model';
import type { Queryable } from '../db/database';
import { conflict, notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { dryRunPassed, JsonText, orgOperation, type AnyOperationSpec, type RawJson } from '../http/operation';
import { pageResponse, pageText } from '../http/page';
import { idParams, orgParams } from '../http/schemas';
import { invalid } from '../http/validation';
import {
  deleteConfiguration,
  deleteMember,
  getConfiguration,
  insertConfiguration,
  insertMember,
  getConfigurationRecordText,
  listConfigurationRecordTexts,
  saveConfigurationRecord,
  touchConfiguration,
  updateConfiguration,
  updateMember,
  type StoredConfiguration,
} from '../store/configurations';
import { getRegisteredDevice } from '../store/devices';

const deviceParams = idParams.extend({ serialNumber: z.string().min(1).max(64) });

const configurationNotFound = (id: string) =>
  notFound('CONFIGURATION_NOT_FOUND', `There is no configuration ${id} in this organization.`, 'id');
const deviceNotInConfiguration = (serialNumber: string) =>
  notFound('DEVICE_NOT_IN_CONFIGURATION', `Device ${serialNumber} is not in this configuration.`, 'serialNumber');

async function mustGet(db: Queryable, orgId: string, id: string, svc?: ServiceContext): Promise<StoredConfiguration> {
  const load = () => getConfiguration(db, orgId, id);
  return foundOr(svc ? readThrough(svc, db, `stored-configuration/${orgId}/${id}`, load) : load(), () =>
    configurationNotFound(id),
  );
}

async function recordOf(db: Queryable, stored: StoredConfiguration) {
  const ctx = await configurationContext(
    db,
    stored.orgId,
    stored.members.map((m) => m.settings.networkTemplateId),
  );
  return configurationRecord(stored, ctx);
}

/**
 * The interface's errors refuse the write, and its dry run alike (the same 400, one entry per
 * violation); our rules only warn (the status operation shows them). A dry run that passes
 * answers the empty envelope: nothing was changed.
 */
function judgeChange(violations: readonly Violation[], dryRun: boolean): RawJson | undefined {
  const errors = errorsOf(violations);
  if (errors.length > 0) throw invalid(errors);
  return dryRun ? dryRunPassed() : undefined;
}

/**
 * After a change: mark the configuration edited, recompute its files' content, and rebuild and
 * keep the record that reads return.
 */
async function afterChange(db: Queryable, svc: ServiceContext, orgId: string, id: string, touch: boolean) {
  if (touch) await touchConfiguration(db, id);
  await refreshSettingsHashes(db, svc, orgId, id);
  const record = await recordOf(db, await mustGet(db, orgId, id));
  await saveConfigurationRecord(db, id, record);
  return record;
}

/** The kept record as JSON text, or one rebuilt from the tables for a configuration written before records were kept. */
async function readRecordText(db: Queryable, orgId: string, id: string): Promise<string> {
  const kept = await getConfigurationRecordText(db, orgId, id);
  if (kept === undefined) throw configurationNotFound(id);
  return kept ?? JSON.stringify(await recordOf(db, await mustGet(db, orgId, id)));
}

/** The domain's context for these members: the organization's region and the templates they name. */
function contextOf(db: Queryable, orgId: string, members: readonly ConfigurationMember[]) {
  return configurationContext(
    db,
    orgId,
    members.map((m) => m.networkTemplateId),
  );
}

/** judgeChange for the configuration these settings and members would make. */
async function judgeConfiguration(
  db: Queryable,
  orgId: string,
  settings: ConfigurationSettings,
  members: readonly ConfigurationMember[],
  dryRun: boolean,
) {
  return judgeChange(validateConfiguration(settings, members, await contextOf(db, orgId, members)), dryRun);
}

/** A dry run's data is null: the errors, if any, are the envelope's. */
const recordOrDryRun = configurationRecordSchema.nullable();

/**
 * What a change that may be a dry run declares: dryRun=true runs it without a transaction, and it
 * answers as the change would, 400 with its validation errors or 200 with data null.
 */
const DRY_RUNNABLE = {
  query: dryRunQuerySchema,
  mutates: true,
  readOnlyWhen: (query: { dryRun: boolean }) => query.dryRun,
} as const;
const DRY_RUN_SUMMARY =
  'With dryRun=true nothing changes: the answer is the one the change would get, 400 with its validation errors or 200 with data null.';

export const configurationOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'configurations.list',
    method: 'GET',
    path: '/organizations/:orgId/configurations',
    tag: 'Configurations',
    summary:
      'Configurations of the organization, filtered by name (Search), sorted (SortOptions), paged (Limit, Page from 1).',
    params: orgParams,
    query: configurationListQuerySchema,
    mutates: false,
    response: pageResponse(configurationRecordSchema),
    handler: async ({ db, ctx, caller, query }) =>
      readThrough(ctx, db, `configurations/${caller.orgId}/${JSON.stringify(query)}`, async () => {
        const { items, totalCount } = await listConfigurationRecordTexts(db, caller.orgId, {
          search: query.Search,
          sort: query.SortOptions,
          limit: query.Limit,
          page: query.Page,
        });
        const records: string[] = [];
        for (const item of items) records.push(item.record ?? (await readRecordText(db, caller.orgId, item.id)));
        return pageText(records, { page: query.Page, limit: query.Limit }, totalCount);
      }),
  }),
  orgOperation({
    id: 'configurations.create',
    method: 'POST',
    path: '/organizations/:orgId/configurations',
    tag: 'Configurations',
    summary:
      'Creates a configuration; only name is required. Observed payload forms are accepted and stored canonically.',
    params: orgParams,
    body: configurationCreateSchema,
    mutates: true,
    response: {
      kind: 'json',
      status: 201,
      data: configurationRecordSchema,
      description: 'The new configuration; note its id.',
    },
    handler: async ({ db, ctx, caller, body }) => {
      const { region } = await configurationContext(db, caller.orgId, []);
      judgeChange(validateConfigurationSettings(body, { region, deviceTypes: [] }), false);
      const id = randomUUID();
      await insertConfiguration(db, { id, orgId: caller.orgId, name: body.name, settings: body });
      return afterChange(db, ctx, caller.orgId, id, false);
    },
  }),
  orgOperation({
    id: 'configurations.get',
    method: 'GET',
    path: '/organizations/:orgId/configurations/:id',
    tag: 'Configurations',
    summary: 'One configuration with its devices.',
    params: idParams,
    mutates: false,
    response: { kind: 'json', data: configurationRecordSchema, description: 'The configuration.' },
    handler: async ({ db, ctx, caller, params }) =>
      readThrough(
        ctx,
        db,
        `configuration/${caller.orgId}/${params.id}`,
        async () => new JsonText(await readRecordText(db, caller.orgId, params.id)),
      ),
  }),
  orgOperation({
    id: 'configurations.delete',
    method: 'DELETE',
    path: '/organizations/:orgId/configurations/:id',
    tag: 'Configurations',
    summary: 'Deletes a configuration; its devices are free to join another one.',
    params: idParams,
    mutates: true,
    response: { kind: 'json', data: deleteResultSchema, description: '{ id, deleted: true }' },
    handler: async ({ db, caller, params }) => {
      if (!(await deleteConfiguration(db, caller.orgId, params.id))) throw configurationNotFound(params.id);
      return { id: params.id, deleted: true };
    },
  }),
  orgOperation({
    id: 'configurations.update',
    method: 'PATCH',
    path: '/organizations/:orgId/configurations/:id',
    tag: 'Configurations',
    summary: `Changes settings of a configuration. ${DRY_RUN_SUMMARY}`,
    params: idParams,
    body: configurationPatchSchema,
    ...DRY_RUNNABLE,
    response: {
      kind: 'json',
      data: recordOrDryRun,
      description: 'The updated configuration; with dryRun, null when the change would pass.',
    },
    handler: async ({ db, ctx, caller, params, query, body }) => {
      const stored = await mustGet(db, caller.orgId, params.id, ctx);
      const merged = mergeConfigurationPatch(settingsOf(stored), body);
      const passed = await judgeConfiguration(db, caller.orgId, merged, membersOf(stored), query.dryRun);
      if (passed) return passed;
      await updateConfiguration(db, stored.id, merged.name ?? stored.name, merged);
      return afterChange(db, ctx, caller.orgId, stored.id, false);
    },
  }),
  orgOperation({
    id: 'configurations.status',
    method: 'GET',
    path: '/organizations/:orgId/configurations/validate/:id',
    tag: 'Configurations',
    summary: 'Whether the configuration is complete (its files can be downloaded) or the errors that stand in the way.',
    params: idParams,
    mutates: false,
    response: {
      kind: 'json',
      data: configurationStatusSchema,
      description: '{ configurationId, complete, errors, readyDevices }',
    },
    // The rules run once per change of what they read (the configuration, its devices, the
    // templates they name), not once per request: the verdict is kept as the text it is sent as.
    handler: async ({ db, ctx, caller, params }) =>
      readThrough(ctx, db, `configuration-status/${caller.orgId}/${params.id}`, async () => {
        const stored = await mustGet(db, caller.orgId, params.id, ctx);
        const members = membersOf(stored);
        return new JsonText(
          JSON.stringify(
            configurationStatus(stored.id, settingsOf(stored), members, await contextOf(db, caller.orgId, members)),
          ),
        );
      }),
  }),
  orgOperation({
    id: 'configurations.addDevice',
    method: 'POST',
    path: '/organizations/:orgId/configurations/:id/devices',
    tag: 'Configurations',
    summary:
      'Adds a registered device of the organization to the configuration. A device is in at most one configuration.',
    params: idParams,
    body: deviceAddSchema,
    ...DRY_RUNNABLE,
    response: {
      kind: 'json',
      status: 201,
      data: recordOrDryRun,
      description: 'The configuration with the device; with dryRun, 200 and null when the add would pass.',
    },
    handler: async ({ db, ctx, caller, params, query, body }) => {
      const stored = await mustGet(db, caller.orgId, params.id, ctx);
      const device = await readThrough(ctx, db, `registered-device/${caller.orgId}/${body.serialNumber}`, () =>
        getRegisteredDevice(db, caller.orgId, body.serialNumber),
      );
      if (!device) {
        throw notFound(
          'DEVICE_NOT_REGISTERED',
          `Device ${body.serialNumber} is not registered in this organization: register it first, then add it.`,
          'serialNumber',
        );
      }
      // A device registered in this organization can only be in a configuration of this organization.
      const holder = device.configurationId === null ? undefined : { configurationId: device.configurationId };
      if (holder?.configurationId === stored.id) {
        throw conflict(
          'DEVICE_ALREADY_IN_CONFIGURATION',
          `Device ${body.serialNumber} is already in this configuration: update it instead.`,
          'serialNumber',
        );
      }
      if (holder) {
        throw conflict(
          'DEVICE_IN_OTHER_CONFIGURATION',
          `Device ${body.serialNumber} is already in configuration ${holder.configurationId}: a device belongs to one configuration at a time; remove it there first.`,
          'serialNumber',
        );
      }
      // The password takes part in the rules (a password without Wifi is an error) but is stored sealed, apart.
      const member: ConfigurationMember = {
        ...body,
        deviceType: device.deviceType,
        wifiPasswordSet: body.wifiPassword !== undefined,
      };
      const members = [...membersOf(stored), member];
      const passed = await judgeConfiguration(db, caller.orgId, settingsOf(stored), members, query.dryRun);
      if (passed) return passed;
      await insertMember(db, {
        configurationId: stored.id,
        orgId: caller.orgId,
        serialNumber: body.serialNumber,
        settings: member,
        wifiPasswordSealed: body.wifiPassword === undefined ? null : ctx.secrets.box.seal(body.wifiPassword),
      });
      return afterChange(db, ctx, caller.orgId, stored.id, true);
    },
  }),
  orgOperation({
    id: 'configurations.removeDevice',
    method: 'DELETE',
    path: '/organizations/:orgId/configurations/:id/devices/:serialNumber',
    tag: 'Configurations',
    summary: 'Removes a device from the configuration.',
    params: deviceParams,
    mutates: true,
    response: { kind: 'json', data: configurationRecordSchema, description: 'The configuration without the device.' },
    handler: async ({ db, ctx, caller, params }) => {
      const stored = await mustGet(db, caller.orgId, params.id);
      if (!stored.members.some((m) => m.serialNumber === params.serialNumber))
        throw deviceNotInConfiguration(params.serialNumber);
      await deleteMember(db, stored.id, params.serialNumber);
      return afterChange(db, ctx, caller.orgId, stored.id, true);
    },
  }),
  orgOperation({
    id: 'configurations.updateDevice',
    method: 'PATCH',
    path: '/organizations/:orgId/configurations/:id/devices/:serialNumber',
    tag: 'Configurations',
    summary: `Changes settings of a device in the configuration. ${DRY_RUN_SUMMARY}`,
    params: deviceParams,
    body: deviceUpdateSchema,
    ...DRY_RUNNABLE,
    response: {
      kind: 'json',
      data: recordOrDryRun,
      description: 'The updated configuration; with dryRun, null when the change would pass.',
    },
    handler: async ({ db, ctx, caller, params, query, body }) => {
      const stored = await mustGet(db, caller.orgId, params.id, ctx);
      const members = membersOf(stored);
      const index = members.findIndex((m) => m.serialNumber === params.serialNumber);
      const current = members[index];
      if (!current) throw deviceNotInConfiguration(params.serialNumber);
      const merged = mergeDevicePatch(current, body);
      const passwordGiven = body.wifiPassword !== undefined;
      const member: ConfigurationMember = {
        ...merged,
        wifiPasswordSet: passwordGiven || merged.wifiPasswordSet === true,
      };
      members[index] = member;
      const passed = await judgeConfiguration(db, caller.orgId, settingsOf(stored), members, query.dryRun);
      if (passed) return passed;
      await updateMember(db, {
        configurationId: stored.id,
        serialNumber: params.serialNumber,
        settings: member,
        // A new password is sealed; one dropped by the merge (Wifi no longer used) is cleared.
        wifiPasswordSealed: passwordGiven
          ? ctx.secrets.box.seal(body.wifiPassword ?? '')
          : member.wifiPasswordSet
            ? undefined
            : null,
      });
      return afterChange(db, ctx, caller.orgId, stored.id, true);
    },
  }),
];
