import { describe, expect, it } from 'vitest';
import { believableDevices, sharedSerialReason, sharedSerialRefusal, sharedSerials } from '../../domain/shared-serial';

const at = (serialNumber: string | null, link: string) => ({ serialNumber, link });

describe('sharedSerials', () => {
  it('finds a serial number two devices claim, whatever their links, with both links', () => {
    const shared = sharedSerials([
      at('EPC000101', 'serial:/dev/a'),
      at('WESP000001', 'serial:/dev/b'),
      at('EPC000101', 'ble:AA:BB'),
    ]);
    expect([...shared]).toEqual([['EPC000101', ['serial:/dev/a', 'ble:AA:BB']]]);
  });

  it('finds none when every serial number is claimed once, and ignores devices that said nothing', () => {
    expect(
      sharedSerials([at('EPC000101', 'serial:/dev/a'), at(null, 'serial:/dev/b'), at(null, 'serial:/dev/c')]).size,
    ).toBe(0);
  });

  it('counts one device listed twice on the same link once', () => {
    expect(sharedSerials([at('EPC000101', 'serial:/dev/a'), at('EPC000101', 'serial:/dev/a')]).size).toBe(0);
  });
});

describe('believableDevices', () => {
  const real = at('EPC000101', 'serial:/dev/real');
  const copy = at('EPC000101', 'serial:/dev/copy');
  const other = at('EPC000102', 'serial:/dev/other');

  it('believes neither of two devices claiming one serial, and the others as usual', () => {
    expect(believableDevices([real, copy, other], [real, copy, other])).toEqual([other]);
  });

  it('judges a part of the list against everything attached: a device that just arrived is not believed while another claims its serial', () => {
    expect(believableDevices([copy], [real, copy, other])).toEqual([]);
  });

  it('believes the one left once the other is gone', () => {
    expect(believableDevices([real], [real, other])).toEqual([real]);
  });
});

describe('sharedSerialReason', () => {
  it('names the serial number, the links and what is held back, in a technician’s words', () => {
    const text = sharedSerialReason('EPC000101', ['serial:/dev/a', 'ble:AA:BB']);
    expect(text).toBe(
      'Two attached devices claim serial EPC000101 (serial:/dev/a, ble:AA:BB). Nothing is sent to the service for it, and no job can start, until one is unplugged.',
    );
  });

  it('refuses a serial another device claims with that reason, and nothing else', () => {
    const shared = sharedSerials([
      at('EPC000101', 'serial:/dev/a'),
      at('EPC000101', 'ble:AA:BB'),
      at('WESP000001', 'serial:/dev/b'),
    ]);
    expect(sharedSerialRefusal(shared, 'EPC000101')).toBe(
      sharedSerialReason('EPC000101', ['serial:/dev/a', 'ble:AA:BB']),
    );
    expect(sharedSerialRefusal(shared, 'WESP000001')).toBeNull();
  });
});
