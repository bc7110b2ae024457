/**
 * Our fixed binary formats (firmware image, firmware patch, firmware manifest) open the same way,
 * so a device can tell them apart before it parses anything: four ASCII bytes that name the format,
 * then one byte that says the version of its layout.
 */
export interface BinaryOpening {
  magic: string;
  version: number;
}

export function writeOpening(target: Uint8Array, opening: BinaryOpening): void {
  for (let i = 0; i < 4; i++) target[i] = opening.magic.charCodeAt(i);
  target[4] = opening.version;
}

/** Whether `bytes` open with this format's magic and layout version. */
export function opensWith(bytes: Uint8Array, opening: BinaryOpening): boolean {
  return (
    bytes.length >= 5 && String.fromCharCode(...bytes.subarray(0, 4)) === opening.magic && bytes[4] === opening.version
  );
}
