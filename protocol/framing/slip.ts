/** RFC 1055 special characters. */
export const SLIP_END = 0xc0;
export const SLIP_ESC = 0xdb;
/** ESC ESC_END stands for a data byte END. */
export const SLIP_ESC_END = 0xdc;
/** ESC ESC_ESC stands for a data byte ESC. */
export const SLIP_ESC_ESC = 0xdd;

/** Bytes `data` takes once escaped, without the END delimiters. */
export function slipEscapedLength(data: Uint8Array): number {
  let length = data.length;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i]!;
    if (byte === SLIP_END || byte === SLIP_ESC) length++;
  }
  return length;
}

/** Writes `data` escaped into `target` at `offset`; returns the offset after it. */
export function slipEscapeInto(data: Uint8Array, target: Uint8Array, offset: number): number {
  let j = offset;
  for (let i = 0; i < data.length; i++) {
    const byte = data[i]!;
    if (byte === SLIP_END) {
      target[j++] = SLIP_ESC;
      target[j++] = SLIP_ESC_END;
    } else if (byte === SLIP_ESC) {
      target[j++] = SLIP_ESC;
      target[j++] = SLIP_ESC_ESC;
    } else {
      target[j++] = byte;
    }
  }
  return j;
}
