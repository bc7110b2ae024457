import { join } from 'node:path';
import { z } from 'zod';
import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import { firmwareReleaseKeySchema } from '../../../domain/files/firmware-release-key';
import type { SimulatedDeviceView } from '../../../contract/simulation';
import { demoConfigurationDevices, demoSerialNumbers } from '../../../server';
import {
  sendControlCommand,
  startFleet,
  startSimulatedDevice,
  type SimulatedDevice,
  type SimulatedFleet,
} from '../../../simulator';
import type { SimulationPort } from '../../core';
import type { ServiceClient } from '../../cloud';

/** One device of the bench: its type and serial number. */
export interface BenchDevice {
  deviceType: DeviceType;
  serialNumber: string;
}

export interface SimulatedWorkbench {
  fleet: SimulatedFleet;
  /** Where the devices announce their ptys: the core's discovery reads it. */
  ptyDir: string;
  serialNumbers: string[];
  /** Starts one more device on the bench, plugged in at once. */
  add(device: BenchDevice): Promise<SimulatedDevice>;
  stop(): Promise<void>;
}

/**
 * Simulated devices on pty links, as if plugged in over USB: by default one of each type, with the
 * first serial numbers of the demo fleet (the local workspace knows them from its manufacturing
 * records), or the `devices` given (benchDevicesFor). Their memory lives under `dir`, so an
 * updated device stays updated across runs. They trust the firmware release keys given (the local
 * workspace's: trustedReleaseKeys), as a real device trusts the keys it was made with.
 */
export async function startSimulatedWorkbench(options: {
  dir: string;
  publicKeyPem: string;
  releaseKeysPem: readonly string[];
  types?: readonly DeviceType[];
  devices?: readonly BenchDevice[];
}): Promise<SimulatedWorkbench> {
  const ptyDir = join(options.dir, 'pty');
  const wanted =
    options.devices ??
    (options.types ?? DEVICE_TYPES).map((deviceType) => ({
      deviceType,
      serialNumber: demoSerialNumbers(deviceType)[0]!,
    }));
  const devices = wanted.map((d) => ({ ...d, link: 'pty' as const }));
  const fleet = await startFleet({
    stateDir: join(options.dir, 'devices'),
    publicKeyPem: options.publicKeyPem,
    defaults: { ptyDir, releaseKeysPem: options.releaseKeysPem },
    devices,
  });
  const serialNumbers = devices.map((d) => d.serialNumber);
  const add = async (device: BenchDevice): Promise<SimulatedDevice> => {
    if (fleet.devices.some((d) => d.descriptor.serialNumber === device.serialNumber))
      throw new Error(`${device.serialNumber} is on the bench already.`);
    const started = await startSimulatedDevice({
      ...device,
      link: 'pty',
      ptyDir,
      releaseKeysPem: options.releaseKeysPem,
      stateDir: join(options.dir, 'devices', device.serialNumber),
      publicKeyPem: options.publicKeyPem,
    });
    // The fleet stops what is in its list: the added device goes with the others.
    fleet.devices.push(started);
    serialNumbers.push(device.serialNumber);
    return started;
  };
  return { fleet, ptyDir, serialNumbers, add, stop: () => fleet.stop() };
}

/**
 * The bench `--simulate NAME` builds: the devices of the local workspace's configuration of that
 * name, or with no name one free device of each type (to build new configurations with) and every
 * device of the demo flows' configurations.
 */
export async function benchDevicesFor(
  client: ServiceClient | null,
  configurationName: string | undefined,
): Promise<BenchDevice[]> {
  const free = DEVICE_TYPES.map((deviceType) => ({ deviceType, serialNumber: demoSerialNumbers(deviceType)[0]! }));
  if (configurationName === undefined) return [...free, ...demoConfigurationDevices()];
  if (!client)
    throw new Error(
      `--simulate "${configurationName}" builds the bench from a configuration of the local workspace: it needs the local workspace, not a signed-in service.`,
    );
  const names: string[] = [];
  for await (const configuration of client.configurations.listAll({ Search: configurationName })) {
    if (configuration.name === configurationName) {
      if (configuration.devices.length === 0)
        throw new Error(
          `The configuration "${configurationName}" has no devices: add some, or start --simulate with no name.`,
        );
      return configuration.devices.map((d) => ({ deviceType: d.deviceType, serialNumber: d.serialNumber }));
    }
    names.push(configuration.name);
  }
  const near =
    names.length > 0
      ? ` (near names: ${names
          .slice(0, 5)
          .map((n) => `"${n}"`)
          .join(', ')})`
      : '';
  throw new Error(
    `No configuration is named "${configurationName}" in the local workspace${near}: give its name exactly as the Configurations screen shows it, or no name for the demo flows' devices.`,
  );
}

/** The bench as the core sees it (SimulationPort): its devices, a hand on their E-stops, and one more device. */
export function simulationPortOf(bench: () => SimulatedWorkbench | null): SimulationPort {
  const viewOf = (device: SimulatedDevice): SimulatedDeviceView => ({
    serialNumber: device.descriptor.serialNumber,
    deviceType: device.descriptor.deviceType,
    canPressEstop: device.descriptor.controlSocket !== undefined,
  });
  const current = (): SimulatedWorkbench => {
    const started = bench();
    if (!started) throw new Error('The simulated bench is still starting: try again in a moment.');
    return started;
  };
  return {
    devices: () => bench()?.fleet.devices.map(viewOf) ?? [],
    async pressEstop(serialNumber) {
      const device = current().fleet.devices.find((d) => d.descriptor.serialNumber === serialNumber);
      const socket = device?.descriptor.controlSocket;
      if (!socket) throw new Error(`${serialNumber} has no control socket on this bench.`);
      const answer = await sendControlCommand(socket, { command: 'press-estop' });
      if (!answer.ok) throw new Error(`${serialNumber} refused the press: ${answer.error}`);
      return answer.presses;
    },
    addDevice: async (device) => viewOf(await current().add(device)),
  };
}

/** Registers the workbench's devices in the organization (when they are not yet), so they can join configurations at once. */
export async function registerWorkbenchDevices(
  client: ServiceClient,
  serialNumbers: readonly string[],
): Promise<string[]> {
  const registered: string[] = [];
  for (const serialNumber of serialNumbers) {
    const found = await client.devices.list({ serial: serialNumber, limit: 1 });
    if (found.items.length > 0) continue;
    await client.devices.register({ serialNumber, name: `Workbench ${serialNumber.replace(/\d+$/, '')}` });
    registered.push(serialNumber);
  }
  return registered;
}

/** The release keys a service trusts (GET /v1/firmware-release-keys, no API key), as PEM. */
export async function trustedReleaseKeys(serviceUrl: string): Promise<string[]> {
  const response = await fetch(`${serviceUrl}/v1/firmware-release-keys`);
  if (!response.ok) throw new Error(`The service answered ${response.status} to GET /v1/firmware-release-keys.`);
  const body = (await response.json()) as { data?: unknown };
  const parsed = z.array(firmwareReleaseKeySchema).safeParse(body.data);
  if (!parsed.success) throw new Error('The service did not list its firmware release keys.');
  return parsed.data.map((key) => key.publicKeyPem);
}

/** The key a service signs configuration files with (GET /v1/config-file-signing-key, no API key), as PEM: the devices check their files against it. */
export async function configFileSigningKey(serviceUrl: string): Promise<string> {
  const response = await fetch(`${serviceUrl}/v1/config-file-signing-key`);
  const body = (await response.json()) as { data?: { publicKeyPem?: string } };
  if (!body.data?.publicKeyPem) throw new Error('The local workspace did not give its signing key.');
  return body.data.publicKeyPem;
}
