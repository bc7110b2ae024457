import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fetchServiceData } from './service-fetch';

/** The service's configuration-file signing key, from a PEM file or the service itself. */
export async function loadPublicKey(source: { file?: string; serviceUrl?: string }): Promise<string> {
  let pem: string;
  if (source.file !== undefined) {
    pem = await readFile(source.file, 'utf8');
  } else if (source.serviceUrl !== undefined) {
    pem = await fetchSigningKey(source.serviceUrl);
  } else {
    throw new Error('Give the service public key: --public-key FILE.pem or --service-url URL.');
  }
  try {
    createPublicKey(pem);
  } catch (error) {
    throw new Error(`The public key is not a valid PEM key: ${(error as Error).message}`);
  }
  return pem;
}

/** GET /v1/config-file-signing-key (public, no API key): `{ data: { keyId, algorithm, publicKeyPem } }`. */
async function fetchSigningKey(serviceUrl: string): Promise<string> {
  const { url, data } = await fetchServiceData(serviceUrl, '/v1/config-file-signing-key');
  const pem = (data as { publicKeyPem?: unknown } | undefined)?.publicKeyPem;
  if (typeof pem !== 'string') throw new Error(`GET ${url} returned no data.publicKeyPem.`);
  return pem;
}
