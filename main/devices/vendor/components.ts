import {
  FIRMWARE_IMAGE_HEADER_SIZE,
  encodeFirmwareImageHeader,
  parseFirmwareImageHeader,
} from '../../../domain/files/firmware-image';
import { FileFormatError } from '../../../domain/files/file-error';
import type { VendorFamily } from '../../../domain/vendor/running-values';
import { FRC_FILE } from '../../../protocol/vendor';

/**
 * How one of our signed firmware bundles carries a vendor device's files (docs/vendor-devices.md,
 * "Firmware bundles"). The bundle is unchanged: one image with our 64-byte header (type, version),
 * named and hashed in the manifest and signed by a release key. Its body is either
 *
 *  - a component set: "PVCS" | u8 layout version 1 | u8 count | then per component
 *    u8 name length | name (ASCII, a fixed vendor file name) | u32 LE size | bytes;
 *    each component goes by the fs transfer under its name (FRC), or the one component is the
 *    package POSTed to fl/fw/epc (EPC);
 *  - anything else: the whole image is the one file sent, as `updateAppImg.bin` on the FRC and as
 *    the package on the EPC.
 *
 * The signature covers the whole image, so every component is checked before the first is sent.
 */

export interface VendorComponent {
  name: string;
  bytes: Uint8Array;
}

const MAGIC = 'PVCS';
const LAYOUT = 1;
/** The order the FRC takes its files in (vendor spec §7.1): radios and safety set before the application. */
const FRC_ORDER: readonly string[] = [
  FRC_FILE.bleRadioImage,
  FRC_FILE.ismRadioImage,
  FRC_FILE.smcuReadOnly,
  FRC_FILE.smcuFileSystem,
  FRC_FILE.smcuOptionBytes,
  FRC_FILE.smcuSettings,
  FRC_FILE.appImage,
];
/** The EPC package's name inside a component set. */
export const EPC_PACKAGE_NAME = 'epc-package.tar.zst';

function bad(message: string): never {
  throw new FileFormatError('FW_BAD_BUNDLE', message);
}

function isComponentSet(body: Uint8Array): boolean {
  return body.length >= 6 && new TextDecoder().decode(body.subarray(0, 4)) === MAGIC;
}

/** The files a bundle's image holds for a device of `family`, in the order they are sent. */
export function componentsOf(image: Uint8Array, family: VendorFamily): VendorComponent[] {
  const header = parseFirmwareImageHeader(image);
  const body = image.subarray(FIRMWARE_IMAGE_HEADER_SIZE);
  if (!isComponentSet(body)) return [{ name: family === 'FRC' ? FRC_FILE.appImage : EPC_PACKAGE_NAME, bytes: image }];
  if (body[4] !== LAYOUT)
    bad(
      `The ${header.deviceType} ${header.version} component set has layout ${body[4]}; this Provisioner reads layout ${LAYOUT}.`,
    );
  const count = body[5]!;
  const components: VendorComponent[] = [];
  let offset = 6;
  for (let i = 0; i < count; i++) {
    const nameLength = body[offset] ?? bad('The component set ends inside a component name.');
    const name = new TextDecoder().decode(body.subarray(offset + 1, offset + 1 + nameLength));
    offset += 1 + nameLength;
    if (offset + 4 > body.length) bad(`The component set ends before the size of ${name}.`);
    const size = new DataView(body.buffer, body.byteOffset + offset, 4).getUint32(0, true);
    offset += 4;
    if (offset + size > body.length) bad(`The component ${name} is cut short (${size} bytes announced).`);
    components.push({ name, bytes: body.subarray(offset, offset + size) });
    offset += size;
  }
  if (offset !== body.length) bad('The component set has bytes after its last component.');
  checkNames(components, family, `${header.deviceType} ${header.version}`);
  return family === 'FRC'
    ? [...components].sort((a, b) => FRC_ORDER.indexOf(a.name) - FRC_ORDER.indexOf(b.name))
    : components;
}

function checkNames(components: readonly VendorComponent[], family: VendorFamily, what: string): void {
  const names = components.map((c) => c.name);
  if (new Set(names).size !== names.length) bad(`The ${what} component set names a file twice.`);
  if (family === 'EPC') {
    if (components.length !== 1 || names[0] !== EPC_PACKAGE_NAME)
      bad(`An EPC takes one package (${EPC_PACKAGE_NAME}); the ${what} component set holds ${names.join(', ')}.`);
    return;
  }
  const unknown = names.filter((name) => !FRC_ORDER.includes(name));
  if (unknown.length > 0)
    bad(
      `The ${what} component set holds files an FRC-family device does not take: ${unknown.join(', ')} (it takes ${FRC_ORDER.join(', ')}).`,
    );
  if (!names.includes(FRC_FILE.appImage)) bad(`The ${what} component set has no ${FRC_FILE.appImage}.`);
}

/** An image holding `components` as a component set, for release builds, tests and the bench. */
export function buildComponentImage(
  deviceType: string,
  version: string,
  components: readonly VendorComponent[],
): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [encoder.encode(MAGIC), Uint8Array.of(LAYOUT, components.length)];
  for (const component of components) {
    const name = encoder.encode(component.name);
    const size = new Uint8Array(4);
    new DataView(size.buffer).setUint32(0, component.bytes.length, true);
    parts.push(Uint8Array.of(name.length), name, size, component.bytes);
  }
  const bodyLength = parts.reduce((sum, part) => sum + part.length, 0);
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + bodyLength);
  image.set(encodeFirmwareImageHeader({ deviceType, version, bodyLength }));
  let offset = FIRMWARE_IMAGE_HEADER_SIZE;
  for (const part of parts) {
    image.set(part, offset);
    offset += part.length;
  }
  return image;
}
