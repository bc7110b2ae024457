import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileOnce, errnoCode } from '../../../platform/durable-file';

/**
 * This workstation's id: made once, kept in the data directory, and sent with every confirmation
 * so the service can tell which computer saw a device (two laptops, or the app and the CLI on one,
 * share it when they share the data directory). Random, so it says nothing about the computer.
 */

const FILE = 'workstation-id';
const ID = /^[A-Za-z0-9-]{8,128}$/;

export async function workstationId(dataDir: string): Promise<string> {
  const path = join(dataDir, FILE);
  const existing = await readId(path);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Two processes starting together agree on the first one's id instead of each keeping its own.
  await createFileOnce(path, `${randomUUID()}\n`);
  const id = await readId(path);
  if (!id) throw new Error(`${path} does not hold a workstation id: delete it and a new one is made.`);
  return id;
}

async function readId(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return ID.test(text) ? text : undefined;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}
