import { describe, expect, it } from 'vitest';
import { parseScm2, type Scm2Input } from '../../../domain/vendor/scm2';
import {
  epcRadioId,
  runningValueMatches,
  runningValues,
  RunningValuesError,
} from '../../../domain/vendor/running-values';
import { epcEthernetScm2, frcIsmScm2 } from './samples';

const asMap = (input: Scm2Input, family: 'FRC' | 'EPC') =>
  new Map(runningValues(parseScm2(input), family).map((v) => [v.path, v.expected]));

describe('runningValues', () => {
  it('FRC on ISM: mode, own address from network and radio id, channel, power, machines in key order', () => {
    const values = asMap(frcIsmScm2(), 'FRC');
    expect(values.get('cfg/setup/ism/mode')).toBe('T');
    expect(values.get('cfg/setup/ism/ownAddr')).toBe('40,7,0');
    expect(values.get('cfg/setup/radioChannel')).toBe(12);
    expect(values.get('cfg/setup/radioPower')).toBe(-5);
    expect(values.get('cfg/setup/pairedDeviceName?0')).toBe('TRUCK');
    expect(values.get('cfg/setup/ism/pairAddr?0')).toBe('40,8,0');
    expect(values.get('cfg/setup/pairedDeviceName?1')).toBe('MOWER');
    expect(values.get('cfg/setup/ism/pairAddr?9')).toBe('0,0,0');
    expect(values.get('cfg/setup/pairedDeviceName?9')).toBe('');
    expect([...values.keys()].some((p) => p.startsWith('cfg/sf/'))).toBe(false);
  });

  it('FRC on BLE: peripheral mode and paired MACs', () => {
    const input = frcIsmScm2() as { NET: Record<string, unknown> };
    input.NET = {
      blue0: { mac: 'AA:BB:CC:00:00:01' },
      peers: { '1': { name: 'M1', deviceId: 4, deviceType: 'EPC', blue0: { mac: 'AA:BB:CC:00:00:02' } } },
    };
    const values = asMap(input as Scm2Input, 'FRC');
    expect(values.get('cfg/setup/radioMode')).toBe('S');
    expect(values.get('cfg/setup/pairedDeviceMac?0')).toBe('aa:bb:cc:00:00:02');
    expect(values.get('cfg/setup/pairedDeviceMac?1')).toBe('00:00:00:00:00:00');
  });

  it('EPC on Ethernet: safety, care slots, port 0, CAN and peers', () => {
    const values = asMap(epcEthernetScm2(), 'EPC');
    expect(values.get('cfg/sf/smcu/global/timeoutMs')).toBe(500);
    expect(values.get('cfg/sf/smcu/global/txRateMs')).toBe(50);
    expect(values.get('cfg/sf/smcu/global/deviceId')).toBe(2);
    expect(values.get('cfg/sf/smcu/global/firmware')).toBe('/usr/lib/smcu/dev_out/ER_RO');
    expect(values.get('cfg/sf/smcu/care1/deviceId')).toBe(7);
    expect(values.get('cfg/sf/smcu/care2/deviceId')).toBe(65535);
    expect(values.get('cfg/net/eth0/port0/ip')).toBe('192.168.3.10/24');
    expect(values.get('cfg/net/eth0/port0/dhcp')).toBe(false);
    expect(values.get('cfg/net/can0/canService')).toBe('j1939');
    expect(values.get('cfg/net/can0/canBitrate')).toBe(250000);
    expect(values.get('cfg/peers/peer0/addr')).toBe('coap://192.168.3.11');
    expect(values.get('cfg/peers/peer1/name')).toBe('');
  });

  it('EPC on ISM: one-byte ids in the 12-hex-digit form, and a clear refusal above 255', () => {
    expect(epcRadioId(0x28, 7)).toBe('280007000100');
    const values = asMap(frcIsmScm2(), 'EPC');
    expect(values.get('cfg/radio/ism0/radioId')).toBe('280007000100');
    expect(values.get('cfg/radio/ism0/peerId')).toBe('280008000100');
    expect(values.get('cfg/radio/ism0/connectionMode')).toBe('tdmabase');
    const big = frcIsmScm2() as { NET: { ism0: Record<string, unknown> } };
    big.NET.ism0['network_id'] = 300;
    expect(() => runningValues(parseScm2(big), 'EPC')).toThrow(RunningValuesError);
    expect(() => runningValues(parseScm2(big), 'EPC')).toThrow(/network id is one byte/);
  });

  it('refuses what the family cannot run', () => {
    expect(() => runningValues(parseScm2(epcEthernetScm2()), 'FRC')).toThrow(/FRC-family device: it has no eth0/);
    const six = epcEthernetScm2() as { SAFE: Record<string, unknown> };
    six.SAFE['careId'] = [1, 2, 3, 4, 5, 6];
    expect(() => runningValues(parseScm2(six), 'EPC')).toThrow(/5 care slots, not 6/);
  });

  it('every value has a path and a label, and no path twice', () => {
    for (const [input, family] of [
      [frcIsmScm2(), 'FRC'],
      [epcEthernetScm2(), 'EPC'],
      [frcIsmScm2(), 'EPC'],
    ] as const) {
      const values = runningValues(parseScm2(input), family);
      expect(new Set(values.map((v) => v.path)).size).toBe(values.length);
      for (const v of values) expect(v.label.length).toBeGreaterThan(3);
    }
  });
});

describe('runningValueMatches', () => {
  it('compares as the device means it', () => {
    expect(runningValueMatches(500, 500)).toBe(true);
    expect(runningValueMatches(500, '500')).toBe(true);
    expect(runningValueMatches(false, 'false')).toBe(true);
    expect(runningValueMatches(500, 501)).toBe(false);
    expect(runningValueMatches('T', 't')).toBe(false);
    expect(runningValueMatches(true, 'false')).toBe(false);
  });
});
