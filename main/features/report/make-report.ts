import type { ServiceClient } from '../../cloud';
import type { ConfigurationRecord } from '../../../domain/configuration-record';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import type { DeviceType } from '../../../domain/device-types';
import { prefetchBundlesAndKeys, type PrefetchCache } from '../../engine/cache/prefetch';
import type { Ledger } from '../../engine/ledger';
import { buildCommissioningReport, type FirmwareFacts } from './build-report';
import type { CommissioningReport } from './report-model';

/** Which devices the report is about: a whole configuration, or one device of it. */
export type ReportRequest = ({ configurationName: string } | { configurationId: string }) & { deviceSerial?: string };

export interface ReportContext {
  client: Pick<ServiceClient, 'configurations' | 'devices' | 'firmwareReleaseKeys' | 'baseUrl' | 'orgId'>;
  /** Read from its head back, only as far as the configuration's devices need (issue 30). */
  ledger: Pick<Ledger, 'fromHead'> & Partial<Pick<Ledger, 'signerKey'>>;
  /** Where the firmware images are: the report names an image's SHA-256 and signer from its verified bundle when the ledger entry of its install does not. */
  cache?: PrefetchCache;
  workstation: string;
  /** For people: "organization demo at https://…" or "the local workspace". */
  service: string;
  orgId: string;
  now?: Date;
}

/** A bad request, said so the person can fix it. */
export class ReportRequestError extends Error {
  override readonly name = 'ReportRequestError';
}

async function configurationNamed(client: ReportContext['client'], name: string): Promise<ConfigurationRecord> {
  const all: ConfigurationRecord[] = [];
  for await (const configuration of client.configurations.listAll()) all.push(configuration);
  const exact = all.filter((c) => c.name === name);
  const loose = exact.length > 0 ? exact : all.filter((c) => c.name.toLowerCase() === name.toLowerCase());
  if (loose.length === 1) return client.configurations.get(loose[0]!.id);
  if (loose.length > 1)
    throw new ReportRequestError(
      `${loose.length} configurations are named "${name}"; rename one so the report can tell them apart.`,
    );
  const names = all
    .map((c) => `"${c.name}"`)
    .slice(0, 10)
    .join(', ');
  throw new ReportRequestError(
    `No configuration is named "${name}"${names ? `; there are ${names}${all.length > 10 ? ', …' : ''}` : ''}.`,
  );
}

/** The image and signer of each version, from the verified bundles of the firmware cache (the latest fetched once when missing). */
function firmwareLookup(
  context: ReportContext,
): (deviceType: DeviceType, version: string) => Promise<FirmwareFacts | undefined> {
  let keyNames: Promise<Map<string, string>> | undefined;
  const fetched = new Set<DeviceType>();
  const names = () => {
    keyNames ??= context.client.firmwareReleaseKeys().then(
      (keys) => new Map(keys.map((k) => [k.keyId, k.name])),
      () => new Map<string, string>(),
    );
    return keyNames;
  };
  return async (deviceType, version) => {
    const cache = context.cache;
    if (!cache) return undefined;
    let bundle = await cache.find(deviceType, version).catch(() => undefined);
    if (!bundle && !fetched.has(deviceType)) {
      fetched.add(deviceType);
      await prefetchBundlesAndKeys(cache, context.client, [deviceType]).catch(() => undefined);
      bundle = await cache.find(deviceType, version).catch(() => undefined);
    }
    if (!bundle) return undefined;
    const keyId = bundle.bundle.signed?.manifest.keyId;
    const name = keyId ? (await names()).get(keyId) : undefined;
    return {
      imageSha256: bundle.bundle.imageSha256,
      signedBy: keyId ? `${name ?? 'unknown key'} (${keyId})` : 'unsigned',
    };
  };
}

export async function makeCommissioningReport(
  context: ReportContext,
  request: ReportRequest,
): Promise<CommissioningReport> {
  const configuration =
    'configurationId' in request
      ? await context.client.configurations.get(request.configurationId)
      : await configurationNamed(context.client, request.configurationName);
  const serials = configuration.devices.map((d) => d.serialNumber);
  if (request.deviceSerial !== undefined && !serials.includes(request.deviceSerial)) {
    throw new ReportRequestError(
      `${request.deviceSerial} is not in configuration "${configuration.name}" (its devices: ${serials.join(', ') || 'none'}).`,
    );
  }
  const wanted = request.deviceSerial !== undefined ? [request.deviceSerial] : serials;
  const records: DeviceRecord[] = [];
  for (const serial of wanted) {
    const record = (await context.client.devices.list({ serial })).items.find((d) => d.serialNumber === serial);
    if (record) records.push(record);
  }
  return buildCommissioningReport({
    configuration,
    devices: records,
    ledger: context.ledger.fromHead(),
    ...(context.ledger.signerKey ? { signerKey: await context.ledger.signerKey() } : {}),
    firmware: firmwareLookup(context),
    workstation: context.workstation,
    service: context.service,
    orgId: context.orgId,
    now: context.now ?? new Date(),
  });
}
