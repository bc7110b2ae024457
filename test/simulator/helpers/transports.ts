import { createSocket } from 'node:dgram';
import { access } from 'node:fs/promises';
import { SerialPort } from 'serialport';
import { encodeFrameWith, FrameDecoder, type FrameChecksum } from '../../../protocol/framing';

/** How the raw test client moves whole CoAP messages: frames on a pty, datagrams on UDP. */
export interface Transport {
  send(message: Uint8Array): void;
  /** Raw bytes, for tests that write broken or duplicated frames themselves. */
  sendRaw(bytes: Uint8Array): void;
  onMessage(listener: (message: Uint8Array) => void): void;
  onClose(listener: () => void): void;
  readonly isOpen: boolean;
  close(): Promise<void>;
}

/** The two ends a framed transport needs of its byte stream. */
export interface ByteStream {
  write(bytes: Uint8Array): void;
  close(): Promise<void>;
}

/**
 * A Transport over a byte stream that carries SLIP frames (a pty, a BLE characteristic pair).
 * The caller feeds it what the stream brings (`received`) and says when the stream ended (`ended`).
 */
export function framedTransport<Extra extends object>(
  stream: ByteStream,
  extra: Extra,
  checksum: FrameChecksum = 'crc32',
): { transport: Transport & Extra; received(bytes: Uint8Array): void; ended(): void } {
  const decoder = new FrameDecoder({ checksum });
  const listeners: ((message: Uint8Array) => void)[] = [];
  const closeListeners: (() => void)[] = [];
  let open = true;
  return {
    transport: {
      ...extra,
      send: (message) => {
        if (open) stream.write(encodeFrameWith(message, checksum));
      },
      sendRaw: (bytes) => {
        if (open) stream.write(bytes);
      },
      onMessage: (l) => listeners.push(l),
      onClose: (l) => closeListeners.push(l),
      get isOpen() {
        return open;
      },
      close: () => stream.close(),
    },
    received: (bytes) => {
      for (const message of decoder.push(bytes)) for (const l of listeners) l(message);
    },
    ended: () => {
      open = false;
      for (const l of closeListeners) l();
    },
  };
}

export async function waitForPath(path: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await access(path);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${path} did not appear`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

async function openPort(path: string, timeoutMs = 20_000): Promise<SerialPort> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await waitForPath(path, timeoutMs);
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    try {
      await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
      return port;
    } catch (error) {
      // The link of a pty that is going away (a reboot in progress): try again once it is back.
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** `checksum` 'none': the vendor's plain SLIP (a simulated vendor device). */
export async function openSerialTransport(path: string, checksum: FrameChecksum = 'crc32'): Promise<Transport> {
  const port = await openPort(path);
  const framed = framedTransport(
    {
      write: (bytes) => port.write(Buffer.from(bytes)),
      close: async () => {
        if (!port.isOpen) return;
        await new Promise<void>((resolve) => port.close(() => resolve()));
      },
    },
    {},
    checksum,
  );
  port.on('data', (chunk: Buffer) => framed.received(new Uint8Array(chunk)));
  port.on('error', () => undefined);
  port.on('close', () => framed.ended());
  return framed.transport;
}

export async function openUdpTransport(host: string, port: number): Promise<Transport> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const listeners: ((message: Uint8Array) => void)[] = [];
  socket.on('message', (bytes) => {
    for (const l of listeners) l(new Uint8Array(bytes));
  });
  let open = true;
  return {
    send: (message) => socket.send(message, port, host),
    sendRaw: (bytes) => socket.send(bytes, port, host),
    onMessage: (l) => listeners.push(l),
    onClose: () => undefined,
    get isOpen() {
      return open;
    },
    close: async () => {
      open = false;
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
