import type { DeviceSyncView, RegisteredDeviceRowView, RegistryChannel } from '../../../contract/index';
import type { LedgerEntry } from '../../../domain/ledger';
import { commissioningViewOf } from '../../../domain/ledger-commissioning';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import type { Page } from '../../../domain/records';
import { deviceSync, latestFirmwareByType, recordedReading } from '../../engine/jobs/device-sync';
import type { Ledger } from '../../engine/ledger';
import type { AccountSession } from '../account-session';
import { toCoreError } from '../errors';
import type { HandlerGroup } from './types';

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toCoreError(err);
  }
}

/** The organization's records: registered devices, network templates, users, API keys. */
export function registryHandlers(
  session: AccountSession,
  ledger: Pick<Ledger, 'entries'>,
): HandlerGroup<RegistryChannel> {
  return {
    'devices.list': async (input) => {
      const { client } = session.require('devices.read');
      const page = await call(() =>
        client.devices.list({
          limit: input.limit,
          page: input.page,
          search: input.search || undefined,
          serial: input.serial || undefined,
          configurableOnly: input.configurableOnly,
        }),
      );
      return withSync(
        page,
        await latestFirmwareByType(
          client,
          page.items.map((d) => d.deviceType),
        ),
        await ledger.entries(),
      );
    },
    'devices.register': (input) =>
      call(() =>
        session.require('devices.write').client.devices.register({
          serialNumber: input.serialNumber,
          name: input.name,
          ...(input.deviceImage ? { deviceImage: input.deviceImage } : {}),
        }),
      ),
    'devices.update': (input) =>
      call(() =>
        session.require('devices.write').client.devices.update(input.serialNumber, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.deviceImage !== undefined ? { deviceImage: input.deviceImage } : {}),
          ...(input.deleteImage ? { deleteImage: true } : {}),
        }),
      ),
    'templates.list': (input) =>
      call(() =>
        session.require('templates.read').client.ipNetworkTemplates.list({
          nameFilter: input.nameFilter || undefined,
          typeFilter: input.typeFilter,
          sortBy: input.sortBy,
          sortDirection: input.sortDirection,
          limit: input.limit,
          page: input.page,
        }),
      ),
    'templates.get': (input) => call(() => session.require('templates.read').client.ipNetworkTemplates.get(input.id)),
    'templates.create': (input) =>
      call(() => session.require('templates.write').client.ipNetworkTemplates.create(input.template)),
    'users.list': (input) =>
      call(() =>
        session.require('users.manage').client.users.list({
          IsActive: input.isActive,
          Search: input.search || undefined,
          SortOptions: input.sortOptions,
          limit: input.limit,
          page: input.page,
        }),
      ),
    'users.register': (input) => call(() => session.require('users.manage').client.users.register(input)),
    'users.delete': (input) => call(() => session.require('users.manage').client.users.delete(input.id)),
    'users.updateRole': (input) =>
      call(() => session.require('users.manage').client.users.setRole(input.id, input.userRole)),
    'apiKeys.list': async (input) => {
      const keys = await call(() =>
        session.require('keys.manage').client.apiKeys.list({
          Limit: input.limit,
          Offset: input.offset,
          IncludeApiKeys: input.includeApiKeys,
          KeyFormat: input.keyFormat,
          ...(input.nameFilter ? { Name: input.nameFilter } : {}),
        }),
      );
      // Whole keys never reach the renderer, whatever a service sends back for "Masked".
      return keys.map((k) => ({ ...k, key: input.keyFormat === 'Masked' && k.key ? maskKey(k.key) : null }));
    },
    'apiKeys.updateRole': (input) =>
      call(() => session.require('keys.manage').client.apiKeys.setRole(input.keyName, input.role)),
  };
}

/**
 * Each row with how the device stands, judged from what the service last recorded of it: the
 * Devices screen shows the same states as `device list` (main/engine/jobs/device-sync.ts).
 */
/**
 * Each record with how it stands against the service and, when it is in a configuration, whether
 * this workstation's ledger counts it commissioned and which steps it still needs.
 */
function withSync(
  page: Page<DeviceRecord>,
  latest: ReadonlyMap<string, string | null | undefined>,
  ledgerEntries: readonly LedgerEntry[],
): Page<RegisteredDeviceRowView> {
  return {
    ...page,
    items: page.items.map((record) => {
      const sync = deviceSync(recordedReading(record), record, latest.get(record.deviceType));
      const view: DeviceSyncView = {
        state: sync.state,
        text: sync.text,
        findings: sync.findings ?? [],
        expectedFirmwareVersion: sync.firmware.expected,
        lastObservedAt: sync.lastObservedAt,
      };
      const commissioning =
        record.configurationId === null ? null : commissioningViewOf(ledgerEntries, record.serialNumber);
      return { ...record, sync: view, commissioning };
    }),
  };
}

/** Keeps at most the last four characters, as Masked promises. */
export function maskKey(key: string): string {
  const visible = key.replace(/^[•*\u2022]+/, '').slice(-4);
  return `••••••••${visible}`;
}
