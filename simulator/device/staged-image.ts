import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes of consecutive writes gathered before they go to the file in one write: one Q-Block1 payload set. */
const GATHER_LIMIT = 64 * 1024;

/** The staged images of this process by path, so that the state store can flush one before it persists progress. */
const openImages = new Map<string, StagedImage>();

/**
 * Writes every gathered byte of the staged image at `path` to its file. The state store calls it
 * before it writes device.json: an acknowledged offset on disk never covers bytes that are not.
 */
export async function flushStagedImage(path: string): Promise<void> {
  await openImages.get(path)?.flush();
}

/**
 * The flash bank that receives a new image: offset-addressed writes (blocks land where they
 * belong, whatever order they arrive in) and reads for verification.
 *
 * Consecutive writes are gathered and reach the file together (up to GATHER_LIMIT, or when a write
 * lands elsewhere, or before a read, an erase or a save of the device's state): a file write per
 * 1024-byte block costs a thread-pool round trip each, which on a busy computer took longer than
 * the block's time on the wire. The flash model (wire/flash.ts) still times every block.
 */
export class StagedImage {
  /** One open in progress or done: blocks in flight must not each open their own handle. */
  private handle: Promise<FileHandle> | undefined;
  private gathered: { offset: number; chunks: Uint8Array[]; length: number } | undefined;
  /** Writes to the file run one after another, so a flush never overtakes an earlier one. */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    openImages.set(path, this);
  }

  async write(offset: number, bytes: Uint8Array): Promise<void> {
    const gathered = this.gathered;
    if (gathered !== undefined && gathered.offset + gathered.length === offset) {
      // The caller may reuse its buffer (a decoder's window): keep a copy.
      gathered.chunks.push(bytes.slice());
      gathered.length += bytes.length;
    } else {
      if (gathered !== undefined) await this.flush();
      this.gathered = { offset, chunks: [bytes.slice()], length: bytes.length };
    }
    if (this.gathered!.length >= GATHER_LIMIT) await this.flush();
  }

  /** Writes what is gathered to the file; resolves once it, and every write before it, is there. */
  flush(): Promise<void> {
    const gathered = this.gathered;
    this.gathered = undefined;
    if (gathered !== undefined) {
      const bytes =
        gathered.chunks.length === 1 ? gathered.chunks[0]! : Buffer.concat(gathered.chunks, gathered.length);
      this.writing = this.writing.catch(() => undefined).then(() => this.writeFile(gathered.offset, bytes));
    }
    return this.writing;
  }

  /** Starts a new image: whatever the bank held is gone. */
  async erase(): Promise<void> {
    this.gathered = undefined;
    await this.writing.catch(() => undefined);
    const handle = await this.open();
    await handle.truncate(0);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    await this.flush();
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
    // Large reads: each is a thread-pool round trip, which a busy computer makes slow.
    const chunk = 1024 * 1024;
    for (let offset = 0; offset < size; offset += chunk) {
      const bytes = await this.read(offset, Math.min(chunk, size - offset));
      hash.update(bytes);
      if (bytes.length < Math.min(chunk, size - offset)) break;
    }
    return hash.digest('hex');
  }

  /** What is gathered reaches the file first (a reboot keeps the bytes; device.json says which count). */
  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }

  private async writeFile(offset: number, bytes: Uint8Array): Promise<void> {
    const handle = await this.open();
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, offset + written);
      written += bytesWritten;
    }
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
