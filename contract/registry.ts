import { z } from 'zod';
import type { ApiKeyRecord } from '../domain/api-keys';
import type { IpNetworkTemplateRecord } from '../domain/ip-network-template';
import {
  apiKeyRoleSchema,
  sortDirectionSchema,
  templateInterfaceSchema,
  templateSortBySchema,
  userRoleSchema,
  userSortOptionSchema,
} from '../domain/enums';
import type { Page } from '../domain/records';
import type { DeviceRecord } from '../domain/registered-device-record';
import type { UserRecord } from '../domain/users';
import type { SyncFinding } from '../domain/sync-detail';
import type { CommissioningView } from './accountability';
import { command, query } from './channel-spec';
import { nonEmpty, pageQuery, recordId, serialNumber } from './inputs';

/** A device image: a data URL (`data:image/png;base64,...`); the service stores the text as sent. */
const deviceImage = z.string().max(2_000_000);

export const networkTemplatePayloadSchema = z.object({
  ipNetworkTemplateName: nonEmpty,
  commInterface: templateInterfaceSchema,
  netmask: nonEmpty,
  gatewayIpAddress: z.string().nullable().optional(),
  nameservers: z.array(z.string()).max(8).nullable().optional(),
  ssid: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
});
export type NetworkTemplatePayload = z.infer<typeof networkTemplatePayloadSchema>;

/** Records as the service returns them (domain/ owns their schemas). */
export type RegisteredDeviceView = DeviceRecord;

/**
 * How a registered device stands against what the service expects, judged from what the service
 * last recorded of it (main/engine/jobs/device-sync.ts, as `device list` judges attached devices).
 */
export interface DeviceSyncView {
  state: 'in-sync' | 'behind' | 'drift' | 'unconfigured' | 'unknown';
  /** For a person: "in sync", "firmware behind (device 1.0.0, service expects 1.1.0)", ... */
  text: string;
  /** `text` as codes and values, for a screen to say in the reader's language (syncDetailText, domain/sync-detail.ts). */
  findings?: SyncFinding[];
  expectedFirmwareVersion: string | null;
  /** When the service last recorded what a workstation saw of it; null when never. */
  lastObservedAt: string | null;
}

/** A row of the device list: the record, how it stands, and (in a configuration) its commissioning by this workstation's ledger. */
export type RegisteredDeviceRowView = RegisteredDeviceView & {
  sync: DeviceSyncView;
  commissioning: CommissioningView | null;
};
export type NetworkTemplateView = IpNetworkTemplateRecord;
export type UserView = UserRecord;
/** `key` is only ever the masked form or null: whole keys never reach the renderer. */
export type ApiKeyView = ApiKeyRecord;

/** The organization's records: registered devices, IP network templates, users and API keys. */
export const REGISTRY_CHANNELS = {
  'devices.list': query(
    z
      .object({
        search: z.string().max(200).optional(),
        serial: z.string().max(64).optional(),
        configurableOnly: z.boolean().optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<Page<RegisteredDeviceRowView>>(),
  'devices.register': command(
    z.object({ serialNumber, name: nonEmpty.max(200), deviceImage: deviceImage.nullable().default(null) }).strict(),
  ).returns<RegisteredDeviceView>(),
  'devices.update': command(
    z
      .object({
        serialNumber,
        name: nonEmpty.max(200).optional(),
        deviceImage: deviceImage.optional(),
        deleteImage: z.boolean().optional(),
      })
      .strict(),
  ).returns<RegisteredDeviceView>(),

  'templates.list': query(
    z
      .object({
        nameFilter: z.string().max(200).optional(),
        typeFilter: templateInterfaceSchema.optional(),
        sortBy: templateSortBySchema.optional(),
        sortDirection: sortDirectionSchema.optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<NetworkTemplateView[]>(),
  'templates.get': query(z.object({ id: recordId }).strict()).returns<NetworkTemplateView>(),
  'templates.create': command(
    z.object({ template: networkTemplatePayloadSchema }).strict(),
  ).returns<NetworkTemplateView>(),

  'users.list': query(
    z
      .object({
        isActive: z.boolean().optional(),
        search: z.string().max(200).optional(),
        sortOptions: userSortOptionSchema.optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<Page<UserView>>(),
  'users.register': command(z.object({ email: z.email(), userRole: userRoleSchema }).strict()).returns<boolean>(),
  'users.delete': command(z.object({ id: recordId }).strict()).returns<boolean>(),
  'users.updateRole': command(z.object({ id: recordId, userRole: userRoleSchema }).strict()).returns<boolean>(),

  // KeyFormat Visible is not offered: whole keys never reach the renderer.
  'apiKeys.list': query(
    z
      .object({
        nameFilter: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(30).default(30),
        offset: z.number().int().min(0).default(0),
        includeApiKeys: z.boolean().default(false),
        keyFormat: z.enum(['None', 'Masked']).default('Masked'),
      })
      .strict(),
  ).returns<ApiKeyView[]>(),
  'apiKeys.updateRole': command(
    z.object({ keyName: nonEmpty.max(200), role: apiKeyRoleSchema }).strict(),
  ).returns<boolean>(),
} as const;
export type RegistryChannel = keyof typeof REGISTRY_CHANNELS;
