import { describe, expect, it } from 'vitest';
import { paramDrift, sharedOptions, stall } from '../../simulator/cli/flags';
import { parseParameterDrift } from '../../simulator/device/parameters';
import { parseLink } from '../../simulator/parse-link';

describe('simulator command-line flags', () => {
  it('turn fault flags into the fault options of every device', () => {
    expect(
      sharedOptions({
        link: 'pty',
        drop: 0.05,
        corrupt: 0.02,
        pullAt: 300000,
        replugAfter: 500,
        stall: stall('5000@100000'),
        powerCycleDuringApply: true,
        seed: 9,
      }),
    ).toEqual({
      faults: {
        drop: 0.05,
        corrupt: 0.02,
        pullAt: 300000,
        replugAfterMs: 500,
        stall: { ms: 5000, atOffset: 100000 },
        powerCycleDuringApply: true,
        seed: 9,
      },
    });
  });

  it('--fault-param-drift: which parameter is stored wrongly, and as what', () => {
    expect(sharedOptions({ link: 'pty', faultParamDrift: paramDrift('safety.timeout=1024') })).toEqual({
      faults: { paramDrift: 'safety.timeout=1024' },
    });
    expect(parseParameterDrift('safety.timeout=1024')).toEqual({ key: 'safety.timeout', value: 1024 });
    expect(parseParameterDrift('safety.ossdEnabled=false')).toEqual({ key: 'safety.ossdEnabled', value: false });
    expect(parseParameterDrift('ism.txPower=Low')).toEqual({ key: 'ism.txPower', value: 'Low' });
    expect(parseParameterDrift('can.can0Id')).toEqual({ key: 'can.can0Id' });
    expect(() => paramDrift('safety timeout')).toThrow(/KEY or KEY=VALUE/);
  });

  it('turn wire flags into the wire models and leave out what was not given', () => {
    expect(sharedOptions({ link: 'pty', baud: 921600, bleMtu: 185, udpLatency: 3, flashRate: 50_000 })).toEqual({
      baudRate: 921600,
      ble: { mtu: 185 },
      udp: { latencyMs: 3 },
      flashWriteBytesPerSecond: 50_000,
    });
    expect(sharedOptions({ link: 'pty' })).toEqual({});
  });

  it('parse links as the CLI and fleet files spell them', () => {
    expect(parseLink('pty')).toBe('pty');
    expect(parseLink('ble')).toBe('ble');
    expect(parseLink('udp:127.0.0.1:5683')).toEqual({ udp: { host: '127.0.0.1', port: 5683 } });
    expect(parseLink('udp:[::1]:0')).toEqual({ udp: { host: '::1', port: 0 } });
    expect(() => parseLink('serial:/dev/ttyACM0')).toThrow(/pty, ble or udp/);
    expect(() => stall('5000')).toThrow(/MS@OFFSET/);
  });
});
