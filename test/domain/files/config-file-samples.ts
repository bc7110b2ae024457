import {
  CONFIG_FILE_FORMAT,
  createConfigFileSigner,
  createOrganizationKey,
  generateSigningKeyPair,
  type ConfigFileContent,
} from '../../../domain/files';

/** The keys of the configuration-file tests: a root key, the key it certified for organization plant-a, and its signer. */
export const root = generateSigningKeyPair();
export const orgKey = createOrganizationKey('plant-a', root.privateKeyPem);
export const signer = createConfigFileSigner(orgKey.privateKeyPem, orgKey.certificate);
export const rootKeyPem = root.publicKeyPem;

/** The content of an Ethernet receiver's file, in layout 3 unless `format` says otherwise. */
export function sampleContent(overrides: Partial<ConfigFileContent> = {}): ConfigFileContent {
  return {
    format: CONFIG_FILE_FORMAT,
    syncId: '0b7f2c1e-8a43-4d0e-9a59-2f4a1c7e6d10',
    serialNumber: 'EPC000101',
    deviceType: 'EPC',
    orgId: 'plant-a',
    sequence: 7,
    configurationId: '6c1d3f0a-1111-4a2b-9c3d-123456789abc',
    blank: false,
    issuedAt: '2026-11-21T10:00:00.000Z',
    device: {
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ipAddress: '192.168.3.10',
      ethNetmask: '255.255.255.0',
    },
    peers: [
      {
        serialNumber: 'EPC000102',
        deviceType: 'EPC',
        deviceConfigurationType: 'Sender',
        commInterface: 'Ethernet',
        ipAddress: '192.168.3.11',
      },
    ],
    safety: { timeoutConfiguration: '500ms', canMode: 'none' },
    ...overrides,
  };
}
