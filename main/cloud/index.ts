import { Transport, type TransportOptions } from './http';
import { apiKeyOperations } from './operations/api-keys';
import { configurationOperations } from './operations/configurations';
import { deviceOperations } from './operations/devices';
import { firmwarePatchOperations } from './operations/firmware-patches';
import { firmwareReleaseKeyOperations } from './operations/firmware-release-keys';
import { ipNetworkTemplateOperations } from './operations/ip-network-templates';
import { ledgerOperations } from './operations/ledger';
import { userOperations } from './operations/users';
import { versionOperations } from './operations/version';
import { workstationOperations } from './operations/workstations';
import { workPackageOperations } from './operations/work-packages';

/**
 * The typed client of the Device Configuration and Management Service (interface v1): one function
 * per operation, grouped by resource, every answer parsed with the domain's schemas, every failure
 * one of the error classes in ./errors.
 */
export function createServiceClient(options: TransportOptions) {
  const transport = new Transport(options);
  return {
    baseUrl: transport.baseUrl,
    orgId: transport.orgId,
    transport,
    configurations: configurationOperations(transport),
    devices: deviceOperations(transport),
    ipNetworkTemplates: ipNetworkTemplateOperations(transport),
    users: userOperations(transport),
    apiKeys: apiKeyOperations(transport),
    ledger: ledgerOperations(transport),
    workstations: workstationOperations(transport),
    workPackages: workPackageOperations(transport),
    ...versionOperations(transport),
    ...firmwareReleaseKeyOperations(transport),
    ...firmwarePatchOperations(transport),
  };
}
export type ServiceClient = ReturnType<typeof createServiceClient>;
export type ServiceClientOptions = TransportOptions;

export * from './errors';
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  backoffDelay,
  type CallOptions,
  type FetchFn,
  type RetryPolicy,
  type Timers,
} from './http';
export {
  MAX_PAGE_SIZE,
  collect,
  walkArrayPages,
  walkOffsets,
  walkPages,
  type PageOf,
  type WalkOptions,
} from './paging';
export type { DownloadTarget, DownloadedFile } from './download';
export type { ConfigurationListQuery } from './operations/configurations';
export type { DeviceListQuery, FetchedFile } from './operations/devices';
export type { TemplateListQuery } from './operations/ip-network-templates';
export type { UserListQuery } from './operations/users';
export type { ApiKeyListQuery } from './operations/api-keys';
