import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fetchServiceData } from './service-fetch';

/**
 * The service's root key, from a PEM file or the service itself: what a device is made trusting. It
 * certifies each organization's key, and the first organization whose file the device takes claims it.
 */
export async function loadPublicKey(source: { file?: string; serviceUrl?: string }): Promise<string> {
  let pem: string;
  if (source.file !== undefined) {
    pem = await readFile(source.file, 'utf8');
  } else if (source.serviceUrl !== undefined) {
    pem = await fetchSigningKey(source.serviceUrl);
  } else {
    throw new Error('Give the service root key: --public-key FILE.pem or --service-url URL.');
  }
  try {
    createPublicKey(pem);
  } catch (error) {
    throw new Error(`The public key is not a valid PEM key: ${(error as Error).message}`);
  }
  return pem;
}

/** GET /v1/config-file-signing-key (public, no API key), the root key: `{ data: { keyId, algorithm, publicKeyPem } }`. */
async function fetchSigningKey(serviceUrl: string): Promise<string> {
  const { url, data } = await fetchServiceData(serviceUrl, '/v1/config-file-signing-key');
  const pem = (data as { publicKeyPem?: unknown } | undefined)?.publicKeyPem;
  if (typeof pem !== 'string') throw new Error(`GET ${url} returned no data.publicKeyPem.`);
  return pem;
}
