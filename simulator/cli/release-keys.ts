import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { firmwareReleaseKeySchema, releaseKeyFromPem, type ReleaseKey } from '../../domain/files/firmware-release-key';
import { fetchServiceData } from './service-fetch';

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/**
 * The firmware release keys the simulated devices trust: the public key files given
 * (`--release-key-pub`, repeatable, each file one key or several PEM blocks) and, with `--service-url`, the keys the service trusts
 * (GET /v1/firmware-release-keys). A convenience of the simulation: a real device gets its
 * release keys at manufacture and never asks a service which keys to trust.
 */
export async function loadReleaseKeys(source: { files: readonly string[]; serviceUrl?: string }): Promise<string[]> {
  const keys: ReleaseKey[] = [];
  for (const file of source.files) {
    let pem: string;
    try {
      pem = await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`Cannot read the release key ${file}: ${(error as Error).message}`);
    }
    // A file may hold several keys one after another (what `provisioner release-keys` prints).
    const blocks = pem.match(PEM_BLOCK) ?? [pem];
    for (const block of blocks) {
      try {
        keys.push(releaseKeyFromPem(block, file));
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`);
      }
    }
  }
  if (source.serviceUrl !== undefined) keys.push(...(await fetchReleaseKeys(source.serviceUrl)));
  const byId = new Map(keys.map((key) => [key.keyId, key]));
  return [...byId.values()].map((key) => key.publicKeyPem);
}

async function fetchReleaseKeys(serviceUrl: string): Promise<ReleaseKey[]> {
  const { url, data } = await fetchServiceData(serviceUrl, '/v1/firmware-release-keys');
  const parsed = z.array(firmwareReleaseKeySchema).safeParse(data);
  if (!parsed.success) throw new Error(`GET ${url} did not return a list of release keys.`);
  return parsed.data.map((record) => releaseKeyFromPem(record.publicKeyPem, record.name));
}
