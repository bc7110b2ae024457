import { join } from 'node:path';
import { z } from 'zod';
import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import { firmwareReleaseKeySchema } from '../../../domain/files/firmware-release-key';
import { demoSerialNumbers } from '../../../server';
import { startFleet, type SimulatedFleet } from '../../../simulator';
import type { ServiceClient } from '../../cloud';

export interface SimulatedWorkbench {
  fleet: SimulatedFleet;
  /** Where the devices announce their ptys: the core's discovery reads it. */
  ptyDir: string;
  serialNumbers: string[];
  stop(): Promise<void>;
}

/**
 * One simulated device of each type on a pty link, as if plugged in over USB, with the first
 * serial numbers of the demo fleet (the local workspace knows them from its manufacturing records).
 * Their memory lives under `dir`, so an updated device stays updated across runs. They trust the
 * firmware release keys given (the local workspace's: trustedReleaseKeys), as a real device
 * trusts the keys it was made with.
 */
export async function startSimulatedWorkbench(options: {
  dir: string;
  publicKeyPem: string;
  releaseKeysPem: readonly string[];
  types?: readonly DeviceType[];
}): Promise<SimulatedWorkbench> {
  const ptyDir = join(options.dir, 'pty');
  const types = options.types ?? DEVICE_TYPES;
  const devices = types.map((deviceType) => ({ deviceType, serialNumber: demoSerialNumbers(deviceType)[0]!, link: 'pty' as const }));
  const fleet = await startFleet({
    stateDir: join(options.dir, 'devices'),
    publicKeyPem: options.publicKeyPem,
    defaults: { ptyDir, releaseKeysPem: options.releaseKeysPem },
    devices,
  });
  return { fleet, ptyDir, serialNumbers: devices.map((d) => d.serialNumber), stop: () => fleet.stop() };
}

/** Registers the workbench's devices in the organization (when they are not yet), so they can join configurations at once. */
export async function registerWorkbenchDevices(client: ServiceClient, serialNumbers: readonly string[]): Promise<string[]> {
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
