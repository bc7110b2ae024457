import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdir, unlink } from 'node:fs/promises';
import { USB_PRODUCT_ID } from '../../protocol/constants';
import { writeFileAtomic } from '../../platform/durable-file';

/**
 * Where running serial devices announce themselves. SerialPort.list() never lists ptys, so host
 * discovery also reads `<dir>/*.json`.
 */
export function simulatorDir(): string {
  return process.env.PROVISIONER_SIMULATOR_DIR ?? join(tmpdir(), 'provisioner-simulator');
}

export interface SerialDescriptor {
  serialNumber: string;
  deviceType: string;
  model: string;
  link: 'serial';
  /** The host end of the pty pair. */
  path: string;
  /** As SerialPort.list() reports USB ids: lower-case hex text. */
  productId: string;
  baudRate: number;
  /** The simulator process, so a reader can skip descriptors left by a killed one. */
  pid: number;
}

export function descriptorPath(dir: string, serialNumber: string): string {
  return join(dir, `${serialNumber}.json`);
}

export async function writeSerialDescriptor(dir: string, descriptor: Omit<SerialDescriptor, 'productId' | 'pid' | 'link'>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const full: SerialDescriptor = { ...descriptor, link: 'serial', productId: USB_PRODUCT_ID.toString(16), pid: process.pid };
  await writeFileAtomic(descriptorPath(dir, descriptor.serialNumber), `${JSON.stringify(full)}\n`);
}

export async function removeSerialDescriptor(dir: string, serialNumber: string): Promise<void> {
  await unlink(descriptorPath(dir, serialNumber)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
