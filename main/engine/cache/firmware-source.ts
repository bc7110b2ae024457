import type { ServiceClient } from '../../cloud';
import type { CacheOrigin } from './cache-entry';

/** The part of the API client that prefetch and resolve use. */
export type FirmwareSource = Pick<ServiceClient, 'baseUrl' | 'orgId'> & {
  devices: Pick<
    ServiceClient['devices'],
    'listAll' | 'firmwareVersion' | 'firmwareVersionByType' | 'fetchFirmware' | 'fetchFirmwareByType'
  >;
  /** Absent from clients made before patches: they then get no patches, only bundles. */
  firmwarePatches?: ServiceClient['firmwarePatches'];
};

/** The service and organization a client speaks for: what cache entries are keyed by. */
export function originOf(source: Pick<FirmwareSource, 'baseUrl' | 'orgId'>): CacheOrigin {
  return { serviceUrl: source.baseUrl, orgId: source.orgId };
}

/** The `source` of a cache entry downloaded from the service: which organization, which path. */
export function firmwareSourceLabel(source: Pick<FirmwareSource, 'baseUrl' | 'orgId'>, path: string): string {
  return `service ${source.baseUrl}/v1/organizations/${encodeURIComponent(source.orgId)}${path}`;
}

/** The origin firmwareSourceLabel wrote into `source`: how entries indexed before `origins` existed get theirs. */
export function originFromSourceLabel(label: string): CacheOrigin | undefined {
  const match = /^service (.+)\/v1\/organizations\/([^/]+)\//.exec(label);
  if (!match) return undefined;
  try {
    return { serviceUrl: match[1]!, orgId: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}

/** The service's SHA-256 (hex) of the whole bundle it sends, from its X-Firmware-Sha256 header; undefined when absent or malformed. */
export function announcedBundleSha256(headers: Headers): string | undefined {
  const value = headers.get('x-firmware-sha256')?.trim().toLowerCase();
  return value !== undefined && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
}
