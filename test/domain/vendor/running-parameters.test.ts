import { describe, expect, it } from 'vitest';
import { intendedParameters } from '../../../domain/running-parameters';
import { parametersFromVendorReadings } from '../../../domain/vendor/running-parameters';
import { runningValues, type VendorFamily } from '../../../domain/vendor/running-values';
import { scm2FromConfiguration, type Scm2Source } from '../../../domain/vendor/scm2-from-configuration';

const srcp = {
  serialNumber: 'SRCP000101',
  deviceType: 'SRCP',
  deviceConfigurationType: 'Sender',
  commInterface: 'ISM',
};
const epc = { serialNumber: 'EPC000101', deviceType: 'EPC', deviceConfigurationType: 'Receiver', commInterface: 'ISM' };
const ismSafety = {
  timeoutConfiguration: '1000ms',
  ismTxPower: 'High',
  ismTxChannel: 5,
  ismNetworkId: 12,
  canMode: 'j1939',
  canKBitrate: 'BITRATE_250000',
};

function source(
  own: Record<string, unknown>,
  peers: Record<string, unknown>[],
  safety: Record<string, unknown>,
): Scm2Source {
  const { serialNumber, deviceType, ...device } = own as { serialNumber: string; deviceType: string };
  return { serialNumber, deviceType, device, peers, safety };
}

/** What a device of `family` answers once it runs `content`'s file: each setting as running-values says. */
function answered(content: Scm2Source, family: VendorFamily) {
  return runningValues(scm2FromConfiguration(content), family).map((value) => ({
    path: value.path,
    actual: value.expected,
  }));
}

describe("a vendor device's settings as our running parameters", () => {
  it('an FRC on ISM reports the channel, power and network id the configuration intends', () => {
    const content = source(srcp, [epc], ismSafety);
    const values = parametersFromVendorReadings('FRC', answered(content, 'FRC'));
    expect(values).toEqual({ 'ism.channel': 5, 'ism.txPower': 'High', 'ism.networkId': 12 });
    const intended = intendedParameters(content);
    for (const [key, value] of Object.entries(values)) expect(value, key).toBe(intended[key]);
  });

  it('an EPC reports its safety timeout, ISM, CAN and address settings as the configuration intends them', () => {
    const ism = source(epc, [srcp], ismSafety);
    expect(parametersFromVendorReadings('EPC', answered(ism, 'EPC'))).toEqual({
      'safety.timeout': 1000,
      'ism.channel': 5,
      'ism.txPower': 'High',
      'ism.networkId': 12,
      'can.mode': 'j1939',
      'can.bitrate': 250000,
    });
    const ethernet = source(
      { ...epc, commInterface: 'Ethernet', ipAddress: '172.16.5.20', ethNetmask: '255.255.255.0' },
      [],
      { timeoutConfiguration: '750ms' },
    );
    const values = parametersFromVendorReadings('EPC', answered(ethernet, 'EPC'));
    expect(values).toMatchObject({ 'safety.timeout': 750, 'network.ipAddress': '172.16.5.20', 'can.mode': 'none' });
    for (const key of ['safety.timeout', 'network.ipAddress'])
      expect(values[key], key).toBe(intendedParameters(ethernet)[key]);
  });

  it('shows what differs in our terms: another power in dBm, numbers sent back as text', () => {
    expect(parametersFromVendorReadings('FRC', [{ path: 'cfg/setup/radioPower', actual: 5 }])).toEqual({
      'ism.txPower': '5 dBm',
    });
    expect(parametersFromVendorReadings('FRC', [{ path: 'cfg/setup/radioPower', actual: 14 }])).toEqual({
      'ism.txPower': 'Medium',
    });
    expect(parametersFromVendorReadings('EPC', [{ path: 'cfg/sf/smcu/global/timeoutMs', actual: '900' }])).toEqual({
      'safety.timeout': 900,
    });
    expect(parametersFromVendorReadings('EPC', [{ path: 'cfg/radio/ism0/radioId', actual: 'garbled' }])).toEqual({
      'ism.networkId': 'garbled',
    });
    // Settings with no parameter of ours one to one are left to the value-by-value read-back.
    expect(parametersFromVendorReadings('FRC', [{ path: 'cfg/setup/pairedDeviceName?0', actual: 'EP000101' }])).toEqual(
      {},
    );
  });
});
