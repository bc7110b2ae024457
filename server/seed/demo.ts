import { DEVICE_TYPES, type DeviceType } from '../../domain/device-types';
import {
  buildFirmwareBundle,
  generateReleaseKeyPair,
  makeFirmwareImage,
  releaseKeyFromPem,
  type ReleaseKeyPair,
} from '../../domain/files';
import type { Database, Queryable } from '../db/database';
import { findApiKeyByName, issueApiKey, setApiKeyRole } from '../store/api-keys';
import { trustDefaultReleaseKey } from '../store/default-release-key';
import { importFirmwareBundle, servableFirmwareExists } from '../store/firmware';
import { trustReleaseKey } from '../store/release-keys';
import { upsertManufacturingRecords, type ManufacturingRecord } from '../store/manufacturing';
import { createOrganization } from '../store/organizations';
import { loadServiceSecrets } from '../store/secrets';
import { demoConfigurationRecords, seedDemoConfigurations } from './demo-configurations';

export const DEMO_ORG_ID = 'demo';
export const DEMO_ADMIN_KEY_NAME = 'demo-admin';
export const DEMO_FIRMWARE_VERSIONS = ['1.0.0', '1.1.0'] as const;
/** Devices per type: enough for every typical flow (one EPC sender to several EPC receivers needs four). */
export const DEMO_FLEET_SIZE = 4;
const DEMO_IMAGE_BODY_BYTES = 64 * 1024;
/** Both demo versions share one counter: 1.1.0 fixes nothing that forbids going back to 1.0.0. */
const DEMO_SECURITY_COUNTER = 1;

export const DEMO_MODELS: Record<DeviceType, string> = {
  SRCP: 'SRCP-100 safety remote control',
  WESP: 'WESP-200 wireless E-stop',
  EPC: 'EPC-300 endpoint controller',
  NSCP: 'NSCP-400 network safety controller',
};

/** SRCP000101, SRCP000102, ... for each type. */
export function demoSerialNumbers(deviceType: DeviceType): string[] {
  return Array.from({ length: DEMO_FLEET_SIZE }, (_, i) => `${deviceType}${String(101 + i).padStart(6, '0')}`);
}

/** The free demo fleet, then the devices of the demo configurations (demo-configurations.ts). */
export function demoManufacturingRecords(): ManufacturingRecord[] {
  return [
    ...DEVICE_TYPES.flatMap((deviceType) =>
      demoSerialNumbers(deviceType).map((serialNumber) => ({
        serialNumber,
        deviceType,
        model: DEMO_MODELS[deviceType],
      })),
    ),
    ...demoConfigurationRecords(DEMO_MODELS),
  ];
}

export interface DemoSeed {
  orgId: string;
  adminKey: string;
}

export interface DemoSeedOptions {
  /**
   * The release key that signs the demo firmware, trusted by the service as its default release key:
   * the data directory's (loadDefaultReleaseKey) for local use. Without one the seed makes a key of
   * its own, trusted under the name "demo release key", whose private half is then forgotten.
   */
  releaseKey?: ReleaseKeyPair;
  /**
   * Also make the six typical flows as configurations, with devices of their own registered in the
   * organization: what a new user of the local workspace (and `seed-demo`) sees at once. Tests that
   * count what an organization holds seed without them.
   */
  configurations?: boolean;
}

/**
 * The demo organization (region NA) with an Admin key, manufacturing records for a small fleet of
 * every type and two signed firmware versions per type. Running it again changes nothing and
 * returns the same key (it is stored sealed, so the service can show it again).
 */
export async function seedDemo(db: Database, options: DemoSeedOptions = {}): Promise<DemoSeed> {
  const secrets = await loadServiceSecrets(db);
  return db.transaction(async (tx) => {
    await createOrganization(tx, { id: DEMO_ORG_ID, name: 'Demo organization', region: 'NA' });
    await upsertManufacturingRecords(tx, demoManufacturingRecords());
    let signer: ReleaseKeyPair | undefined;
    for (const deviceType of DEVICE_TYPES) {
      for (const version of DEMO_FIRMWARE_VERSIONS) {
        // Building a bundle is the slow part of seeding; one the service serves already is left as
        // is (an unsigned one from before signatures, or one of a retired key, is built again).
        if (await servableFirmwareExists(tx, deviceType, version)) continue;
        signer ??= await trustedSigner(tx, options.releaseKey);
        const image = makeFirmwareImage(deviceType, version, DEMO_IMAGE_BODY_BYTES);
        const bytes = buildFirmwareBundle({
          deviceType,
          version,
          image,
          releaseKeyPem: signer.privateKeyPem,
          securityCounter: DEMO_SECURITY_COUNTER,
        });
        await importFirmwareBundle(tx, bytes, { deviceType, version });
      }
    }
    if (options.configurations) await seedDemoConfigurations(tx, secrets, DEMO_ORG_ID, DEMO_MODELS);
    const existing = await findApiKeyByName(tx, DEMO_ORG_ID, DEMO_ADMIN_KEY_NAME);
    if (existing) {
      // Someone may have changed its role through the API: the demo promises an Admin key.
      if (existing.role !== 'Admin') await setApiKeyRole(tx, existing.id, 'Admin');
      return { orgId: DEMO_ORG_ID, adminKey: secrets.box.open(existing.keySealed) };
    }
    const issued = await issueApiKey(tx, secrets.box, { orgId: DEMO_ORG_ID, name: DEMO_ADMIN_KEY_NAME, role: 'Admin' });
    if (issued === 'name-taken') throw new Error('The demo admin key appeared while seeding; run seed-demo again.');
    return { orgId: DEMO_ORG_ID, adminKey: issued.key };
  });
}

async function trustedSigner(db: Queryable, given: ReleaseKeyPair | undefined): Promise<ReleaseKeyPair> {
  const key = given ?? generateReleaseKeyPair();
  const outcome = given
    ? await trustDefaultReleaseKey(db, key)
    : await trustReleaseKey(db, releaseKeyFromPem(key.publicKeyPem, 'demo release key'));
  if (outcome.kind === 'retired')
    throw new Error(
      `The release key ${key.keyId} was retired (by ${outcome.retiredBy ?? 'a signed manifest'}); the demo firmware cannot be signed with it.`,
    );
  return key;
}
