import type { ServiceClient } from '../../../../../main/cloud';
import type { TypicalFlow } from '../../../../fixtures/typical-flows';
import { logInCli, type World } from './world';

/**
 * Builds a flow's configuration through the API, as the app or a script would: each device
 * registered (claimed from the manufacturing records), the configuration created, the devices
 * added in the flow's order. Returns the configuration's id.
 */
export async function buildFlow(client: ServiceClient, flow: TypicalFlow): Promise<string> {
  const registered = new Set<string>();
  for await (const device of client.devices.listAll()) registered.add(device.serialNumber);
  for (const device of flow.devices) {
    if (!registered.has(device.payload.serialNumber))
      await client.devices.register({
        serialNumber: device.payload.serialNumber,
        name: `${flow.key} ${device.payload.serialNumber}`,
      });
  }
  const configuration = await client.configurations.create(flow.configuration);
  for (const device of flow.devices) await client.configurations.addDevice(configuration.id, device.payload);
  return configuration.id;
}

/** Where most CLI tests start: the flow's configuration built in the world's service, and the CLI logged in to it. Returns the configuration's id. */
export async function buildFlowAndLogIn(world: World, flow: TypicalFlow): Promise<string> {
  const configurationId = await buildFlow(world.client, flow);
  await logInCli(world);
  return configurationId;
}
