// SLIP + CRC-32 framing of CoAP messages on serial and BLE links; the simulator imports it too.
export { encodeFrame, encodePlainFrame, encodeFrameWith, FrameDecoder, FRAME_CRC_SIZE } from './frame';
export type { FrameChecksum, FrameDecoderOptions, FrameDecoderStats } from './frame';
export { SLIP_END, SLIP_ESC, SLIP_ESC_END, SLIP_ESC_ESC } from './slip';
