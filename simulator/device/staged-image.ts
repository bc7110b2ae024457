import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * The flash bank that receives a new image: offset-addressed writes (blocks land where they
 * belong, whatever order they arrive in) and reads for verification.
 */
export class StagedImage {
  /** One open in progress or done: blocks in flight must not each open their own handle. */
  private handle: Promise<FileHandle> | undefined;

  constructor(private readonly path: string) {}

  async write(offset: number, bytes: Uint8Array): Promise<void> {
    const handle = await this.open();
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, offset + written);
      written += bytesWritten;
    }
  }

  /** Starts a new image: whatever the bank held is gone. */
  async erase(): Promise<void> {
    const handle = await this.open();
    await handle.truncate(0);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const handle = await this.open();
    const out = new Uint8Array(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(out, read, length - read, offset + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return out.subarray(0, read);
  }

  /** Hex SHA-256 of the first `size` bytes, read back from the bank as a device's bootloader does. */
  async sha256(size: number): Promise<string> {
    const hash = createHash('sha256');
    const chunk = 64 * 1024;
    for (let offset = 0; offset < size; offset += chunk) {
      const bytes = await this.read(offset, Math.min(chunk, size - offset));
      hash.update(bytes);
      if (bytes.length < Math.min(chunk, size - offset)) break;
    }
    return hash.digest('hex');
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }

  private open(): Promise<FileHandle> {
    this.handle ??= openForPositionedWrites(this.path);
    return this.handle;
  }
}

/** 'a+' would ignore write positions on Linux; 'r+' (after creating the file if needed) keeps them. */
async function openForPositionedWrites(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return open(path, 'w+');
  }
}
