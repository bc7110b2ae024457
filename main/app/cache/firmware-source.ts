import type { ServiceClient } from '../../cloud';

/** The part of the API client that prefetch and resolve use. */
export type FirmwareSource = Pick<ServiceClient, 'baseUrl' | 'orgId'> & {
  devices: Pick<ServiceClient['devices'], 'listAll' | 'firmwareVersion' | 'firmwareVersionByType' | 'fetchFirmware' | 'fetchFirmwareByType'>;
};

/** The `source` of a cache entry downloaded from the service: which organization, which path. */
export function firmwareSourceLabel(source: Pick<FirmwareSource, 'baseUrl' | 'orgId'>, path: string): string {
  return `service ${source.baseUrl}/v1/organizations/${encodeURIComponent(source.orgId)}${path}`;
}
