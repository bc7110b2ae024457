import { decodeCborMap } from './cbor';
import {
  badConfigFile,
  checkSignable,
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_FORMAT_LAYOUT2,
  type ConfigFileContent,
  type ConfigFileSigner,
  type DecodedConfigFile,
} from './config-file-content';
import { decodeLayout2, encodeLayout2 } from './config-file-layout2';
import { decodeLayout3, encodeLayout3, isSecureConfigMap } from './secure-config';

/**
 * The device configuration file (CBOR), signed by an organization's key. Two layouts, one content:
 * - layout 3, "provisioner-config/3" (secure-config.ts): the vendor's secure configuration map,
 *   our content and the vendor's view of it inside; what the service serves to every device;
 * - layout 2, "provisioner-config/2" (config-file-layout2.ts): our own map, served before. Still
 *   read, and checked the same, so that devices holding one and files saved earlier keep working.
 * Whatever the layout, decoding gives the same DecodedConfigFile: callers need not know which.
 * docs/decisions.md, "The configuration file becomes the vendor's secure configuration map".
 */
export * from './config-file-content';

/** Writes the layout the content names (content.format): layout 3 unless a test asks for a layout-2 file. */
export function encodeConfigFile(content: ConfigFileContent, signer: ConfigFileSigner): Uint8Array {
  checkSignable(content, signer);
  return content.format === CONFIG_FILE_FORMAT_LAYOUT2
    ? encodeLayout2(content, signer)
    : encodeLayout3(content, signer);
}

/** Parses the file's structure, in either layout, and checks its internal consistency; does not check the signatures. */
export function decodeConfigFile(file: Uint8Array): DecodedConfigFile {
  const map = decodeCborMap(file, 'the file', badConfigFile);
  if (isSecureConfigMap(map)) return decodeLayout3(map);
  if (map.format === CONFIG_FILE_FORMAT_LAYOUT2) return decodeLayout2(map);
  return badConfigFile(
    `unknown format ${JSON.stringify(map.format)}: expected the secure configuration map of "${CONFIG_FILE_FORMAT}" (with "config-data") or "${CONFIG_FILE_FORMAT_LAYOUT2}"`,
  );
}
