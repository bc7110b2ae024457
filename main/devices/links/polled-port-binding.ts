import { readSync, writeSync } from 'node:fs';

/**
 * A serial port whose reads and writes are non-blocking system calls on the event loop's thread,
 * started when the port's poller (epoll/kqueue through @serialport/bindings-cpp) says it is ready,
 * as libuv does for sockets and pipes.
 *
 * Why: @serialport/bindings-cpp reads and writes a Unix port with fs.read and fs.write on libuv's
 * thread pool (four threads by default). Every chunk that arrives costs two trips through the pool
 * (the read that gets it, then the read that finds nothing more and falls back to the poller) and
 * every frame sent one: a wake-up of a pool thread and one of the event loop each, which a Station
 * with dozens of devices pays hundreds of times a second (docs/performance.md, Fleet). And the pool
 * is shared with every fs, zlib, DNS and crypto call of the process: four slow file operations in
 * flight stopped every serial port until they finished. The port's file descriptor is already
 * non-blocking (bindings-cpp opens it O_NONBLOCK), so a read or write that is not ready returns
 * EAGAIN at once and never blocks the thread.
 */

/** What bindings-cpp's Unix port bindings (LinuxPortBinding, DarwinPortBinding) have that we use. */
interface UnixPortBinding {
  readonly isOpen: boolean;
  readonly fd: number | null;
  readonly poller: {
    once(event: 'readable' | 'writable', callback: (error: Error | null) => void): unknown;
  };
  readonly openOptions: unknown;
  close(): Promise<void>;
  update(options: unknown): Promise<void>;
  set(options: unknown): Promise<void>;
  get(): Promise<unknown>;
  getBaudRate(): Promise<unknown>;
  flush(): Promise<void>;
  drain(): Promise<void>;
}

/** A port binding as @serialport/stream drives it. */
export interface PortBinding {
  readonly isOpen: boolean;
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>;
  write(buffer: Buffer): Promise<void>;
}

/** A binding as SerialPortStream's `binding` option takes it. */
export interface Binding<Port extends PortBinding = PortBinding> {
  list(): Promise<unknown[]>;
  open(options: never): Promise<Port>;
}

const NOT_READY = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);
/** The codes bindings-cpp treats as the device gone (unix-read.ts, unix-write.ts): the same here. */
const GONE = new Set(['EBADF', 'ENXIO', 'UNKNOWN', 'EIO']);

function isUnixPortBinding(port: unknown): port is UnixPortBinding {
  const candidate = port as Partial<UnixPortBinding> | undefined;
  return typeof candidate?.fd === 'number' && typeof candidate.poller?.once === 'function';
}

/** An error the stream takes as the port having been closed by us, not as a disconnect. */
function canceled(message: string): Error {
  return Object.assign(new Error(message), { canceled: true });
}

function marked(error: unknown): unknown {
  const failure = error as NodeJS.ErrnoException & { disconnect?: boolean };
  if (GONE.has(failure.code ?? '') || failure.errno === -1) failure.disconnect = true;
  return failure;
}

export class PolledPortBinding implements PortBinding {
  private writing: Promise<void> | undefined;

  constructor(private readonly port: UnixPortBinding) {}

  get isOpen(): boolean {
    return this.port.isOpen;
  }

  get openOptions(): unknown {
    return this.port.openOptions;
  }

  async read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    // Wait for the poller first: a read right after the last one would almost always find nothing,
    // and an EAGAIN costs an exception. The poller fires at once when bytes are already waiting.
    for (;;) {
      await this.ready('readable');
      const fd = this.port.fd;
      if (fd === null) throw canceled('Port is not open');
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, offset, length, null);
      } catch (error) {
        if (NOT_READY.has((error as NodeJS.ErrnoException).code ?? '')) continue;
        throw marked(error);
      }
      if (bytesRead > 0) return { buffer, bytesRead };
      // End of file on a port the poller called readable: a tty reads 0 only once it is hung up
      // (the USB device went away). Waiting again would spin, as the poller fires at once.
      throw Object.assign(new Error('The port was hung up (end of file)'), { disconnect: true });
    }
  }

  async write(buffer: Buffer): Promise<void> {
    if (!this.port.isOpen) throw new Error('Port is not open');
    const writing = this.writeAll(buffer);
    this.writing = writing;
    try {
      await writing;
    } finally {
      if (this.writing === writing) this.writing = undefined;
    }
  }

  close(): Promise<void> {
    return this.port.close();
  }
  update(options: unknown): Promise<void> {
    return this.port.update(options);
  }
  set(options: unknown): Promise<void> {
    return this.port.set(options);
  }
  get(): Promise<unknown> {
    return this.port.get();
  }
  getBaudRate(): Promise<unknown> {
    return this.port.getBaudRate();
  }
  flush(): Promise<void> {
    return this.port.flush();
  }

  async drain(): Promise<void> {
    await this.writing?.catch(() => undefined);
    return this.port.drain();
  }

  private async writeAll(buffer: Buffer): Promise<void> {
    let offset = 0;
    while (offset < buffer.length) {
      const fd = this.port.fd;
      if (fd === null) throw new Error('Port is not open');
      try {
        offset += writeSync(fd, buffer, offset, buffer.length - offset);
      } catch (error) {
        if (!NOT_READY.has((error as NodeJS.ErrnoException).code ?? '')) throw marked(error);
        // The driver's buffer is full (a slow line): go on when it has room.
        await this.ready('writable');
      }
    }
  }

  private ready(event: 'readable' | 'writable'): Promise<void> {
    if (!this.port.isOpen) return Promise.reject(canceled('Port is not open'));
    return new Promise<void>((resolve, reject) =>
      this.port.poller.once(event, (error) => (error ? reject(error) : resolve())),
    );
  }
}

/**
 * `binding` with its Unix ports read and written on the event loop (PolledPortBinding); a port
 * without a file descriptor and poller (Windows) is left as the binding opens it.
 */
export function polledBinding<Port extends PortBinding>(binding: Binding<Port>): Binding<Port | PolledPortBinding> {
  return {
    list: () => binding.list(),
    open: async (options: never) => {
      const port = await binding.open(options);
      return isUnixPortBinding(port) ? new PolledPortBinding(port) : port;
    },
  };
}
