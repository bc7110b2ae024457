import { describe, expect, it } from 'vitest';
import { formatLinkSpec, LinkSpecError, parseLinkSpec } from '../../../main/devices/links/link-spec';

describe('parseLinkSpec', () => {
  it.each([
    ['serial:/dev/ttyACM0', { kind: 'serial', path: '/dev/ttyACM0' }],
    ['serial:/dev/ttyACM0@921600', { kind: 'serial', path: '/dev/ttyACM0', baudRate: 921600 }],
    ['serial:COM3', { kind: 'serial', path: 'COM3' }],
    ['udp:192.168.3.10', { kind: 'udp', host: '192.168.3.10', port: 5683 }],
    ['udp:192.168.3.10:5684', { kind: 'udp', host: '192.168.3.10', port: 5684 }],
    ['udp:epc-1.local', { kind: 'udp', host: 'epc-1.local', port: 5683 }],
    ['udp:[fe80::1]:5683', { kind: 'udp', host: 'fe80::1', port: 5683 }],
    ['udp:fe80::1', { kind: 'udp', host: 'fe80::1', port: 5683 }],
    ['ble:AA:BB:CC:DD:EE:FF', { kind: 'ble', id: 'AA:BB:CC:DD:EE:FF' }],
    ['ble:aabbccddeeff', { kind: 'ble', id: 'aabbccddeeff' }],
  ])('reads %s', (text, spec) => {
    expect(parseLinkSpec(text)).toEqual(spec);
  });

  it.each(['', '/dev/ttyACM0', 'usb:/dev/ttyACM0', 'serial:', 'udp:10.0.0.1:99999', 'udp:10.0.0.1:x', 'ble:not an id'])(
    'refuses "%s" with a hint',
    (text) => {
      expect(() => parseLinkSpec(text)).toThrow(LinkSpecError);
      expect(() => parseLinkSpec(text)).toThrow(/serial:\/dev\/ttyACM0/);
    },
  );

  it('formats what it reads', () => {
    for (const text of [
      'serial:/dev/ttyACM0',
      'serial:/dev/ttyACM0@921600',
      'udp:10.0.0.5:5683',
      'udp:[fe80::1]:5683',
      'ble:aabbccddeeff',
    ]) {
      expect(formatLinkSpec(parseLinkSpec(text))).toBe(text);
    }
  });
});
