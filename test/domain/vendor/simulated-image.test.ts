import { describe, expect, it } from 'vitest';
import { makeFirmwareImage } from '../../../domain/files/firmware-image';
import {
  SIMULATED_IMAGE_MAGIC,
  simulatedImageVersion,
  simulatedVendorImage,
} from '../../../domain/vendor/simulated-image';

describe('simulated vendor images', () => {
  it('carry their version in the first line, and other files none', () => {
    const image = simulatedVendorImage('4.2.1', 1000);
    expect(image.length).toBe(1000);
    expect(new TextDecoder().decode(image.subarray(0, SIMULATED_IMAGE_MAGIC.length + 6))).toBe(
      'SIMULATED-VENDOR-IMAGE 4.2.1\n',
    );
    expect(simulatedImageVersion(image)).toBe('4.2.1');
    expect(simulatedImageVersion(new Uint8Array(1000))).toBeUndefined();
    expect(simulatedImageVersion(new TextEncoder().encode(`${SIMULATED_IMAGE_MAGIC}no newline`))).toBeUndefined();
    expect(() => simulatedVendorImage('1.0 beta')).toThrow(/not "1.0 beta"/);
  });

  it('take the version our image header names (the demo releases), and none from a broken header', () => {
    expect(simulatedImageVersion(makeFirmwareImage('SRCP', '1.1.0', 200))).toBe('1.1.0');
    const broken = makeFirmwareImage('SRCP', '1.1.0', 200);
    broken[0] = 0x58;
    expect(simulatedImageVersion(broken)).toBeUndefined();
  });
});
