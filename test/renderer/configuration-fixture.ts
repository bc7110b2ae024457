import type { ConfigurationView } from '../../contract/index';

/** A configuration named Line 3 with a safety timeout and nothing else set, no devices; `changes` on top. */
export function configurationView(changes: Partial<ConfigurationView> = {}): ConfigurationView {
  return {
    id: '6b1f3c2e-9d4a-4c8e-8f00-2a1b3c4d5e6f',
    name: 'Line 3',
    startingIpAddress: null,
    ismTxPower: null,
    ismTxChannel: null,
    ismNetworkId: null,
    canMode: null,
    canKBitrate: null,
    displayTextPgn: null,
    settingsPgn: null,
    approvedSourceAddresses: null,
    receiverOutputControl: null,
    timeoutConfiguration: '1000ms',
    devices: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    lastEditedAt: '2026-01-01T00:00:00.000Z',
    ...changes,
  };
}
