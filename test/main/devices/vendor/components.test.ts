import { describe, expect, it } from 'vitest';
import { makeFirmwareImage, parseFirmwareImageHeader } from '../../../../domain/files/firmware-image';
import { buildComponentImage, componentsOf, EPC_PACKAGE_NAME } from '../../../../main/devices/vendor';
import { FRC_FILE } from '../../../../protocol/vendor';
import { codeOf } from '../../../fixtures/file-format-error';

/** How our signed firmware image carries a vendor device's files (docs/vendor-devices.md, Firmware). */
describe('firmware component sets', () => {
  const app = Uint8Array.from({ length: 300 }, (_, i) => i % 251);
  const radio = Uint8Array.from({ length: 70 }, (_, i) => (i * 7) % 256);

  it('round-trips, keeps our header, and orders the FRC files radios first, the application last', () => {
    const image = buildComponentImage('SRCP', '4.2.0', [
      { name: FRC_FILE.appImage, bytes: app },
      { name: FRC_FILE.bleRadioImage, bytes: radio },
    ]);
    expect(parseFirmwareImageHeader(image)).toMatchObject({ deviceType: 'SRCP', version: '4.2.0' });
    const components = componentsOf(image, 'FRC');
    expect(components.map((c) => c.name)).toEqual([FRC_FILE.bleRadioImage, FRC_FILE.appImage]);
    expect([...components[1]!.bytes]).toEqual([...app]);
    expect([...components[0]!.bytes]).toEqual([...radio]);
  });

  it('an image that is not a set is the one file: updateAppImg.bin on the FRC, the package on the EPC', () => {
    const plain = makeFirmwareImage('EPC', '1.1.0', 500);
    expect(componentsOf(plain, 'FRC')).toEqual([{ name: FRC_FILE.appImage, bytes: plain }]);
    expect(componentsOf(plain, 'EPC')).toEqual([{ name: EPC_PACKAGE_NAME, bytes: plain }]);
  });

  it('refuses names the family does not take, a set without the application, a second EPC file, and a cut set', () => {
    expect(
      codeOf(() =>
        componentsOf(
          buildComponentImage('SRCP', '1.0.0', [
            { name: 'boot.bin', bytes: app },
            { name: FRC_FILE.appImage, bytes: app },
          ]),
          'FRC',
        ),
      ),
    ).toBe('FW_BAD_BUNDLE');
    expect(
      codeOf(() =>
        componentsOf(buildComponentImage('SRCP', '1.0.0', [{ name: FRC_FILE.ismRadioImage, bytes: radio }]), 'FRC'),
      ),
    ).toBe('FW_BAD_BUNDLE');
    expect(
      codeOf(() =>
        componentsOf(
          buildComponentImage('EPC', '1.0.0', [
            { name: EPC_PACKAGE_NAME, bytes: app },
            { name: 'extra', bytes: radio },
          ]),
          'EPC',
        ),
      ),
    ).toBe('FW_BAD_BUNDLE');
    const whole = buildComponentImage('SRCP', '1.0.0', [{ name: FRC_FILE.appImage, bytes: app }]);
    expect(codeOf(() => componentsOf(whole.subarray(0, whole.length - 10), 'FRC'))).toBe('FW_BAD_BUNDLE');
  });
});
