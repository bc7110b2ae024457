import { describe, expect, it } from 'vitest';
import { parseScm2, type Scm2Error } from '../../../domain/vendor/scm2';
import {
  scm2FromConfiguration,
  UNPAIRED_MAC,
  vendorNameOf,
  type Scm2Source,
} from '../../../domain/vendor/scm2-from-configuration';

/** One device's file content as the service builds it (server/configurations/model.ts fileSettingsOf). */
function source(
  serialNumber: string,
  deviceType: string,
  device: Record<string, unknown>,
  peers: Record<string, unknown>[],
  safety: Record<string, unknown>,
): Scm2Source {
  return { serialNumber, deviceType, device, peers, safety };
}

const bleSafety = { timeoutConfiguration: '250ms', canMode: 'canopen', canKBitrate: 'BITRATE_125000' };
const wesp = {
  serialNumber: 'WESP000101',
  deviceType: 'WESP',
  deviceConfigurationType: 'EStopSender',
  commInterface: 'BLE',
};
const nscp = {
  serialNumber: 'NSCP000101',
  deviceType: 'NSCP',
  deviceConfigurationType: 'Receiver',
  commInterface: 'BLE,Wifi',
  ipAddress: '10.9.0.21',
};
const epc = { serialNumber: 'EPC000101', deviceType: 'EPC', deviceConfigurationType: 'Receiver', commInterface: 'BLE' };

describe('scm2 from our configuration file content', () => {
  it('gives a BLE sender with two receivers a vendor view the vendor rules accept: unpaired MAC, 25 ms rate under a 250 ms timeout', () => {
    const { serialNumber, deviceType, ...own } = wesp;
    const scm2 = parseScm2(scm2FromConfiguration(source(serialNumber, deviceType, own, [nscp, epc], bleSafety)));
    // Serial numbers sorted: EPC000101 = 1, NSCP000101 = 2, WESP000101 = 3.
    expect(scm2.SAFE).toEqual({ ioDirection: 'In', safetyTimeout: 250, safetyRate: 25, deviceId: 3, careId: [2, 1] });
    expect(scm2.NET).toMatchObject({
      blue0: { mac: UNPAIRED_MAC },
      ism0: null,
      eth0: null,
      wlan0: null,
      can0: { bitrate: 125, mode: 'canopen' },
    });
    // The peer is reached by the interface this device uses, when the peer has it.
    expect(scm2.NET.peers).toEqual({
      0: {
        name: 'NS000101',
        deviceId: 2,
        deviceType: 'NSC',
        blue0: { mac: UNPAIRED_MAC },
        ism0: null,
        eth0: null,
        wlan0: null,
      },
      1: {
        name: 'EP000101',
        deviceId: 1,
        deviceType: 'EPC',
        blue0: { mac: UNPAIRED_MAC },
        ism0: null,
        eth0: null,
        wlan0: null,
      },
    });
  });

  it('numbers the devices alike in every file of a configuration: a receiver cares for the senders only', () => {
    const { serialNumber, deviceType, ...own } = nscp;
    const receiver = scm2FromConfiguration(source(serialNumber, deviceType, own, [wesp, epc], bleSafety));
    const { serialNumber: s, deviceType: t, ...senderOwn } = wesp;
    const sender = scm2FromConfiguration(source(s, t, senderOwn, [nscp, epc], bleSafety));
    expect(receiver.SAFE).toMatchObject({ ioDirection: 'Out', deviceId: 2, careId: [3] });
    expect(receiver.NET.peers['0']!.deviceId).toBe(sender.SAFE.deviceId);
    expect(sender.NET.peers['0']!.deviceId).toBe(receiver.SAFE.deviceId);
  });

  it('maps a Wifi receiver: its address, netmask, gateway, SSID and password, as a client of the network', () => {
    const device = {
      deviceConfigurationType: 'Receiver',
      commInterface: 'Wifi',
      ipAddress: '10.9.0.21',
      wifiNetmask: '255.255.255.0',
      wifiGateway: '10.9.0.1',
      wifiSsid: 'shop',
      wifiPassword: 'secret',
    };
    const scm2 = parseScm2(
      scm2FromConfiguration(
        source('NSCP000101', 'NSCP', device, [{ ...wesp, commInterface: 'Wifi', ipAddress: '10.9.0.20' }], {
          timeoutConfiguration: '2000ms',
        }),
      ),
    );
    expect(scm2.NET.wlan0).toEqual({
      ip4: '10.9.0.21',
      netmask4: '255.255.255.0',
      gateway4: '10.9.0.1',
      nameservers4: [],
      isDHCP: false,
      ssid: 'shop',
      ssidPwd: 'secret',
      wpa_supplicantEn: true,
      hostapdEn: false,
    });
    expect(scm2.NET.peers['0']).toMatchObject({ wlan0: { ip4: '10.9.0.20' }, blue0: null });
    expect(scm2.NET.can0).toBeNull();
    expect(scm2.SAFE).toMatchObject({ safetyTimeout: 2000, safetyRate: 50 });
  });

  it('picks one interface of several, the safety radio first: ISM over BLE, BLE over Ethernet', () => {
    const ism = scm2FromConfiguration(
      source(
        'EPC000101',
        'EPC',
        { deviceConfigurationType: 'Receiver', commInterface: 'BLE,ISM,Ethernet', ipAddress: '10.0.0.2' },
        [],
        { ismTxPower: 'Low', ismTxChannel: 3, ismNetworkId: 9 },
      ),
    );
    expect(ism.NET).toMatchObject({
      ism0: { radio_id: 1, network_id: 9, txpwr: 0, txChannel: 3, connMode: 'TDMA-Remote' },
      blue0: null,
      eth0: null,
    });
    const ble = scm2FromConfiguration(
      source('EPC000101', 'EPC', { commInterface: 'BLE,Ethernet', ipAddress: '10.0.0.2' }, [], {}),
    );
    expect(ble.NET).toMatchObject({ blue0: { mac: UNPAIRED_MAC }, eth0: null });
  });

  it("carries what is outside the vendor's ranges as it is, so that the vendor check names it", () => {
    const scm2 = scm2FromConfiguration(
      source('EPC000101', 'EPC', { deviceConfigurationType: 'Receiver', commInterface: 'None' }, [], {
        timeoutConfiguration: '5000ms',
      }),
    );
    expect(scm2.SAFE.safetyTimeout).toBe(5000);
    const problems = (() => {
      try {
        parseScm2(scm2);
        return [];
      } catch (error) {
        return (error as Scm2Error).problems;
      }
    })();
    expect(problems.join('\n')).toMatch(/safetyTimeout/);
    expect(problems.join('\n')).toMatch(/exactly one of blue0, ism0, eth0, wlan0/);
  });

  it('is total: a blank file, and settings of unexpected kinds, give the scm2 shape without throwing', () => {
    const blank = scm2FromConfiguration(source('SRCP000101', 'SRCP', {}, [], {}));
    expect(blank.SAFE).toEqual({ ioDirection: 'Out', safetyTimeout: 500, safetyRate: 50, deviceId: 1, careId: [] });
    expect(blank.NET).toEqual({ blue0: null, ism0: null, eth0: null, wlan0: null, can0: null, peers: {} });
    const odd = scm2FromConfiguration(
      source('X', 'ODD', { commInterface: 7, ipAddress: ['a'] }, [{ serialNumber: 3 }, {}], {
        timeoutConfiguration: 500,
        canKBitrate: 'fast',
      }),
    );
    expect(odd.NET.peers['0']).toMatchObject({ name: '', deviceId: 0, deviceType: 'FRC' });
  });

  it('names a peer by its serial number in 8 letters and digits, cutting the type letters first', () => {
    expect(['SRCP000101', 'NSCP000101', 'EPC000101', 'WESP000101'].map(vendorNameOf)).toEqual([
      'SR000101',
      'NS000101',
      'EP000101',
      'WE000101',
    ]);
    expect(vendorNameOf('A-1 2')).toBe('A12');
    expect(vendorNameOf('X1234567890')).toBe('34567890');
  });
});
