import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_FILE_FORMAT, encodeConfigFile, type ConfigFileContent } from '../../../../domain/files/config-file';
import { generateSigningKeyPair, type SigningKeyPair } from '../../../../domain/files/config-file-signature';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { startSimulatedDevice, type SimulatedDevice, type SimulatedDeviceOptions } from '../../../../simulator';
import { testReleaseKey } from '../../../fixtures/release-key';
import { nextSequence, organizationSigner, TEST_ORG_ID } from '../../../fixtures/config-files';

/** The service's root key for the whole test run; simulated devices trust its public half. */
export const serviceKeys: SigningKeyPair = generateSigningKeyPair();

export async function scratchDir(name: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `devices-${name}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

let counter = 0;
/** Serial numbers unique within a run, so descriptors and ptys never collide between test files. */
export function uniqueSerial(prefix: string): string {
  counter++;
  return `${prefix}H${String(process.pid % 10000).padStart(4, '0')}${String(counter).padStart(2, '0')}`;
}

export function startDevice(dir: string, options: Partial<SimulatedDeviceOptions> & Pick<SimulatedDeviceOptions, 'serialNumber'>): Promise<SimulatedDevice> {
  return startSimulatedDevice({
    deviceType: 'EPC',
    link: 'pty',
    stateDir: join(dir, options.serialNumber),
    ptyDir: join(dir, 'sim'),
    publicKeyPem: serviceKeys.publicKeyPem,
    releaseKeysPem: [testReleaseKey.publicKeyPem],
    baudRate: 921600,
    rebootMs: 150,
    applyMs: 50,
    ...options,
  });
}

export function configFile(serialNumber: string, deviceType = 'EPC', keys: SigningKeyPair = serviceKeys, overrides: Partial<ConfigFileContent> = {}): { file: Uint8Array; syncId: string } {
  const syncId = randomUUID();
  const content: ConfigFileContent = {
    format: CONFIG_FILE_FORMAT,
    syncId,
    serialNumber,
    deviceType,
    orgId: TEST_ORG_ID,
    sequence: nextSequence(),
    configurationId: randomUUID(),
    blank: false,
    issuedAt: new Date().toISOString(),
    device: { role: 'Sender', commInterface: 'ISM' },
    peers: [{ serialNumber: 'SRCP000001', role: 'Receiver' }],
    safety: { timeout: '500ms', ismChannel: 3 },
    ...overrides,
  };
  return { file: encodeConfigFile(content, organizationSigner(keys, content.orgId)), syncId };
}

/** An image the simulated devices take once it is announced with signedManifestFor(image) (test/fixtures/release-key.ts). */
export function firmwareImage(version: string, bodyLength: number, deviceType = 'EPC'): Uint8Array {
  return makeFirmwareImage(deviceType, version, bodyLength);
}
