import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeviceConnector } from '../../../../main/engine/jobs/connector';
import type { DeviceConnection } from '../../../../main/engine/jobs/device-port';
import { compareParameters, intendedParameters } from '../../../../domain/running-parameters';
import type { SimulatedDevice, SimulatedDeviceOptions } from '../../../../simulator';
import { STATE_FILE } from '../../../../simulator/device/state';
import { documentedTestVector } from '../../../fixtures/parameters-test-vector';
import { useScratchDir, uniqueSerial } from '../../../fixtures/scratch';
import { configContent, signedConfigFile, startUdpDevice } from '../../../fixtures/simulated-device';

/**
 * GET /params between the host's code (connector → operations/parameters.ts) and the simulated
 * device's (resources/params.ts over its own stored state), on real UDP on loopback.
 */

const scratch = useScratchDir('running-parameters');
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function startEpc(serial: string, options: Partial<SimulatedDeviceOptions> = {}): Promise<SimulatedDevice> {
  const device = await startUdpDevice(scratch.dir, { ...options, serialNumber: serial });
  stops.push(() => device.stop());
  return device;
}

async function connect(device: SimulatedDevice): Promise<DeviceConnection> {
  const connection = await createDeviceConnector({ reconnectTimeoutMs: 10_000 }).connect({
    kind: 'link',
    spec: `udp:127.0.0.1:${device.descriptor.port!}`,
  });
  stops.push(() => connection.close());
  return connection;
}

const content = (serial: string) =>
  configContent(serial, 'EPC', {
    device: {
      deviceConfigurationType: 'Receiver',
      commInterface: 'ISM,Ethernet',
      ipAddress: '10.0.0.5',
      stopCategory: 'CAT0',
    },
    peers: [{ serialNumber: 'SRCP000001', deviceConfigurationType: 'Sender' }],
    safety: {
      timeoutConfiguration: '1000ms',
      ismTxChannel: 3,
      ismTxPower: 'High',
      canMode: 'j1939',
      canKBitrate: 'BITRATE_250000',
    },
  });

describe('GET /params', () => {
  it('the simulated device answers the documented test vector from its stored values, and the host reads the same checksum', async () => {
    const serial = uniqueSerial('EPC');
    const vector = documentedTestVector();
    // The device's non-volatile memory holds exactly the vector's values.
    await (await startEpc(serial)).stop();
    stops.length = 0;
    const statePath = join(scratch.dir, serial, STATE_FILE);
    const state = JSON.parse(await readFile(statePath, 'utf8')) as Record<string, unknown>;
    await writeFile(statePath, JSON.stringify({ ...state, parameters: vector.values }));
    const connection = await connect(await startEpc(serial));
    const running = await connection.readRunningParameters();
    expect(running).toEqual({ values: vector.values, checksum: vector.checksum, checksumBy: 'device' });
    const comparison = compareParameters(vector.values, running);
    expect(comparison.intendedChecksum).toBe(vector.checksum);
    expect(comparison.match).toBe(true);
  });

  it('after an apply, reports what the configuration intends', async () => {
    const serial = uniqueSerial('EPC');
    const connection = await connect(await startEpc(serial));
    const intended = content(serial);
    const applied = await connection.uploadConfiguration(signedConfigFile(intended));
    expect(applied.syncId).toBe(intended.syncId);
    const comparison = compareParameters(intendedParameters(intended), await connection.readRunningParameters());
    expect(comparison.rows.filter((row) => !row.match)).toEqual([]);
    expect(comparison.match).toBe(true);
  });

  it('reads back a receiver of a large configuration: 300 peers, about 12 KiB of parameters (found by the soak bench)', async () => {
    const serial = uniqueSerial('EPC');
    const connection = await connect(await startEpc(serial));
    const intended = {
      ...content(serial),
      peers: Array.from({ length: 300 }, (_, i) => ({
        serialNumber: `SRCP8${String(i + 1).padStart(5, '0')}`,
        deviceConfigurationType: 'Sender',
      })),
    };
    await connection.uploadConfiguration(signedConfigFile(intended));
    const comparison = compareParameters(intendedParameters(intended), await connection.readRunningParameters());
    expect(comparison.match).toBe(true);
  });

  it('--fault-param-drift: in sync by syncId, yet one parameter and the checksum differ', async () => {
    const serial = uniqueSerial('EPC');
    const connection = await connect(await startEpc(serial, { faults: { paramDrift: 'safety.timeout=1024' } }));
    const intended = content(serial);
    const applied = await connection.uploadConfiguration(signedConfigFile(intended));
    expect(applied.identity.configSyncId).toBe(intended.syncId);
    const comparison = compareParameters(intendedParameters(intended), await connection.readRunningParameters());
    expect(comparison.match).toBe(false);
    expect(comparison.checksumsMatch).toBe(false);
    // The device's checksum is honest about what it runs: only the value differs from the file.
    expect(comparison.runningChecksumConsistent).toBe(true);
    expect(comparison.rows.filter((row) => !row.match).map((row) => [row.key, row.intended, row.running])).toEqual([
      ['safety.timeout', 1000, 1024],
    ]);
  });
});
