import type { ConfigFileContent } from '../../../../domain/files/config-file';
import type { SigningKeyPair } from '../../../../domain/files/config-file-signature';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { afterEach } from 'vitest';
import type { DeviceSession } from '../../../../main/devices/session';
import type { SimulatedDevice } from '../../../../simulator';
import { useScratchDir } from '../../../fixtures/scratch';
import { configContent, serviceKeys, signedConfigFile } from '../../../fixtures/simulated-device';

export { scratchDir, uniqueSerial } from '../../../fixtures/scratch';
export { serviceKeys, startDevice } from '../../../fixtures/simulated-device';

/** A configuration file for a simulated device, signed under `keys` (the devices trust serviceKeys), and its sync id. */
export function configFile(
  serialNumber: string,
  deviceType = 'EPC',
  keys: SigningKeyPair = serviceKeys,
  overrides: Partial<ConfigFileContent> = {},
): { file: Uint8Array; syncId: string } {
  const content = configContent(serialNumber, deviceType, overrides);
  return { file: signedConfigFile(content, keys), syncId: content.syncId };
}

/** An image the simulated devices take once it is announced with signedManifestFor(image) (test/fixtures/release-key.ts). */
export function firmwareImage(version: string, bodyLength: number, deviceType = 'EPC'): Uint8Array {
  return makeFirmwareImage(deviceType, version, bodyLength);
}

export interface DeviceBench {
  /** The file's scratch directory: device state and ptys go inside it. */
  readonly dir: string;
  /** Closes the session and stops the device after the current test, whatever it left open. */
  keep(device: SimulatedDevice, session: DeviceSession): void;
}

/** The scratch directory of a test file and the devices its tests open, each test starting with none running. */
export function useDeviceBench(name: string): DeviceBench {
  const scratch = useScratchDir(name);
  const running: { device: SimulatedDevice; session: DeviceSession }[] = [];
  afterEach(async () => {
    for (const { device, session } of running.splice(0)) {
      await session.close().catch(() => undefined);
      await device.stop();
    }
  });
  return {
    get dir() {
      return scratch.dir;
    },
    keep(device, session) {
      running.push({ device, session });
    },
  };
}
