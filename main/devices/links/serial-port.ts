import { polledBinding } from './polled-port-binding';

/**
 * The part of a serial port the link uses, so that tests can open @serialport/binding-mock ports
 * and the app opens real ones through `serialport` (loaded only when a serial link opens: its
 * native binding has no business in processes that never touch a port).
 */
export interface SerialPortLike {
  readonly isOpen: boolean;
  write(data: Uint8Array): boolean;
  on(event: 'data', listener: (data: Buffer) => void): this;
  on(event: 'close', listener: (error?: Error | null) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  removeAllListeners(): this;
  close(callback?: (error?: Error | null) => void): void;
}

export interface SerialPortOpenOptions {
  path: string;
  baudRate: number;
}

export type SerialPortOpener = (options: SerialPortOpenOptions) => Promise<SerialPortLike>;

/**
 * Opens a real port through `serialport` (8N1, no flow control: the protocol's serial settings),
 * read and written on the event loop rather than on libuv's thread pool (polled-port-binding.ts).
 */
export const openSystemSerialPort: SerialPortOpener = async ({ path, baudRate }) => {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({
    binding: polledBinding(SerialPort.binding) as typeof SerialPort.binding,
    path,
    baudRate,
    dataBits: 8,
    parity: 'none',
    stopBits: 1,
    rtscts: false,
    autoOpen: false,
  });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  return port as unknown as SerialPortLike;
};
