import { randomUUID } from 'node:crypto';
import {
  checkConfigurationCompleteness,
  configurationCreateSchema,
  errorsOf,
  type ConfigurationMember,
  type DeviceType,
} from '../../domain';
import { configurationContext } from '../configurations/context';
import { refreshSettingsHashes } from '../configurations/files';
import { configurationRecord } from '../configurations/model';
import type { Queryable } from '../db/database';
import { getConfiguration, insertConfiguration, insertMember, saveConfigurationRecord } from '../store/configurations';
import { insertDevice, registrationOf } from '../store/devices';
import type { ManufacturingRecord } from '../store/manufacturing';
import type { ServiceSecrets } from '../store/secrets';
import { DEMO_FLOWS, type DemoFlow } from './typical-flows';

/**
 * The demo's configurations: the six typical flows of the interface, so that a new user sees real
 * configurations and their pictures at once. A device belongs to one configuration at a time, so
 * each flow gets devices of its own, numbered from 201 per type: apart from the free demo fleet
 * (101 to 104), which stays free for the user to add, register and provision.
 */
const FIRST_FLOW_DEVICE = 201;

export interface DemoConfiguration {
  flow: DemoFlow;
  /** The flow with its serial numbers replaced by the demo devices it is seeded with. */
  seeded: DemoFlow;
}

export function demoConfigurations(): DemoConfiguration[] {
  const next = new Map<DeviceType, number>();
  return DEMO_FLOWS.map((flow) => {
    const renamed = new Map<string, string>();
    for (const device of flow.devices) {
      const number = next.get(device.deviceType) ?? FIRST_FLOW_DEVICE;
      next.set(device.deviceType, number + 1);
      renamed.set(device.payload.serialNumber, `${device.deviceType}${String(number).padStart(6, '0')}`);
    }
    const seeded: DemoFlow = {
      ...flow,
      configuration: structuredClone(flow.configuration),
      devices: flow.devices.map((d) => ({
        deviceType: d.deviceType,
        payload: {
          ...structuredClone(d.payload),
          serialNumber: renamed.get(d.payload.serialNumber) ?? d.payload.serialNumber,
        },
      })),
    };
    return { flow, seeded };
  });
}

/** Every device of the demo configurations, as seeded: the bench web mode's --simulate starts with no configuration named. */
export function demoConfigurationDevices(): { deviceType: DeviceType; serialNumber: string }[] {
  return demoConfigurations().flatMap(({ seeded }) =>
    seeded.devices.map((d) => ({ deviceType: d.deviceType, serialNumber: d.payload.serialNumber })),
  );
}

/** The manufacturing records of the devices the demo configurations use. */
export function demoConfigurationRecords(models: Readonly<Record<DeviceType, string>>): ManufacturingRecord[] {
  return demoConfigurations().flatMap(({ seeded }) =>
    seeded.devices.map((d) => ({
      serialNumber: d.payload.serialNumber,
      deviceType: d.deviceType,
      model: models[d.deviceType],
    })),
  );
}

/**
 * Registers each flow's devices in the organization and makes the flow's configuration. A flow
 * whose first device is already registered was seeded before: it is left as the user left it (a
 * configuration the user deleted does not come back).
 */
export async function seedDemoConfigurations(
  db: Queryable,
  secrets: ServiceSecrets,
  orgId: string,
  models: Readonly<Record<DeviceType, string>>,
): Promise<number> {
  let made = 0;
  for (const { seeded } of demoConfigurations()) {
    const first = seeded.devices[0];
    if (!first || (await registrationOf(db, first.payload.serialNumber)) !== undefined) continue;
    const members: ConfigurationMember[] = seeded.devices.map((d) => ({
      ...d.payload,
      deviceType: d.deviceType,
      wifiPasswordSet: false,
    }));
    // The payloads are what a client sends; stored is their canonical form, as the service stores it.
    const settings = configurationCreateSchema.parse(seeded.configuration);
    const ctx = await configurationContext(db, orgId, []);
    const errors = errorsOf(checkConfigurationCompleteness(settings, members, ctx));
    // The flows are complete by design (test/domain/typical-flows.test.ts); a seed that breaks them is a bug here.
    if (errors.length > 0)
      throw new Error(
        `The demo configuration "${seeded.configuration.name}" is not complete: ${errors.map((e) => e.code).join(', ')}`,
      );
    const id = randomUUID();
    await insertConfiguration(db, { id, orgId, name: settings.name, settings });
    for (const member of members) {
      await insertDevice(db, {
        serialNumber: member.serialNumber,
        orgId,
        name: `${models[member.deviceType]} (${member.serialNumber})`,
        image: null,
      });
      await insertMember(db, {
        configurationId: id,
        orgId,
        serialNumber: member.serialNumber,
        settings: member,
        wifiPasswordSealed: null,
      });
    }
    await refreshSettingsHashes(db, { secrets }, orgId, id);
    const stored = await getConfiguration(db, orgId, id);
    if (stored) await saveConfigurationRecord(db, id, configurationRecord(stored, ctx));
    made += 1;
  }
  return made;
}
