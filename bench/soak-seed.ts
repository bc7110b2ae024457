/**
 * The organization of a night shift (bench/soak.ts, bench/soak-instance.ts): the devices'
 * manufacturing records (straight into the database, as the factory's import does), each device
 * registered and added to one ISM configuration through the interface (SRCP senders, EPC
 * receivers).
 */
import { createServiceClient } from '../main/cloud';
import { openDatabase, releaseKeyring, upsertManufacturingRecords } from '../server';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { srcpToEpcOverIsm } from '../server/seed/typical-flows';
import type { StackState } from '../scripts/stack';
import type { SoakDevice } from './soak-plan';

export const CONFIGURATION_NAME = 'Night shift (soak)';

/** Seeds the demo organization of `stack` with `devices`; the firmware release keys' PEMs. */
export async function seedOrganization(
  stack: StackState,
  devices: readonly Pick<SoakDevice, 'serialNumber' | 'deviceType'>[],
): Promise<string[]> {
  process.env[PASSWORD_FILE_ENV] = stack.postgres!.passwordFile;
  const db = await openDatabase({ databaseUrl: stack.databaseUrl });
  let releaseKeys: string[];
  try {
    await upsertManufacturingRecords(
      db,
      devices.map((d) => ({ serialNumber: d.serialNumber, deviceType: d.deviceType, model: `${d.deviceType} soak` })),
    );
    releaseKeys = (await releaseKeyring(db)).keys.map((key) => key.publicKeyPem);
  } finally {
    await db.close();
  }
  const client = createServiceClient({ baseUrl: stack.url, orgId: 'demo', apiKey: stack.adminKey! });
  for (const device of devices)
    await client.devices.register({ serialNumber: device.serialNumber, name: device.serialNumber });
  const configuration = await client.configurations.create({
    ...srcpToEpcOverIsm.configuration,
    name: CONFIGURATION_NAME,
  });
  for (const device of devices)
    await client.configurations.addDevice(
      configuration.id,
      device.deviceType === 'SRCP'
        ? {
            serialNumber: device.serialNumber,
            deviceConfigurationType: 'Sender',
            commInterface: 'ISM',
            inputConfiguration1: 'NOT_USED',
            inputConfiguration2: 'NOT_USED',
          }
        : { serialNumber: device.serialNumber, deviceConfigurationType: 'Receiver', commInterface: 'ISM', can0Id: 1 },
    );
  return releaseKeys;
}
