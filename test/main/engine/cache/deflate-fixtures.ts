import { encodeFirmwareImageHeader, FIRMWARE_IMAGE_HEADER_SIZE } from '../../../../domain/files/firmware-image';
import type { FirmwareSource } from '../../../../main/engine/cache/firmware-source';

/** An EPC image of `words` 4-byte words that compress like code (repeated opcodes, varying operands): a fixture, not a figure. */
export function codeLikeImage(words: number, seed: number): Uint8Array {
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + words * 4);
  image.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version: '2.0.0', bodyLength: words * 4 }));
  let state = seed;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const at = FIRMWARE_IMAGE_HEADER_SIZE + i * 4;
    image.set(
      [[0x2d, 0xe9, 0x4f, 0xf0][state % 4]!, 0xe9, (state >>> 8) & 0x0f, i % 7 === 0 ? (state >>> 16) & 0xff : 0],
      at,
    );
  }
  return image;
}

/** A service that serves `bundle` as the latest EPC firmware 2.0.0, and nothing else. */
export function servingBundle(bundle: Uint8Array): FirmwareSource {
  const answer = <T>(value: T) => Promise.resolve(value);
  return {
    baseUrl: 'http://service.test',
    orgId: 'o',
    devices: {
      listAll: () => (async function* () {})(),
      firmwareVersion: () => answer({ deviceType: 'EPC' as const, version: '2.0.0' }),
      firmwareVersionByType: () => answer({ deviceType: 'EPC' as const, version: '2.0.0' }),
      fetchFirmware: () => answer({ bytes: bundle, syncId: undefined, headers: new Headers() }),
      fetchFirmwareByType: () => answer({ bytes: bundle, syncId: undefined, headers: new Headers() }),
    },
  };
}
