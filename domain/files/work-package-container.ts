import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { FileFormatError } from './file-error';

/**
 * The signed container that work packages and exported confirmations travel in: a zip whose
 * `manifest.json` names the file's format, carries its body, lists every other entry with its size
 * and SHA-256, and names the key that signed it; `manifest.sig` is the Ed25519 signature of the
 * manifest's bytes.
 *
 * Every entry is stored, not deflated, and in a fixed order with a fixed time, so the same contents
 * always make the same bytes. The reader uses that: after checking the signature and every hash it
 * builds the zip again from what it read and compares it with the file, byte for byte. One byte
 * changed anywhere in the file (in a firmware image, in a zip header, in the padding) is refused.
 */

export const SIGNED_ZIP_MANIFEST = 'manifest.json';
export const SIGNED_ZIP_SIGNATURE = 'manifest.sig';
/** Fixed, so that the same contents make the same zip. */
const ZIP_MTIME = new Date('2020-01-01T00:00:00Z');
/** fflate's code for "stored": no compression. */
const STORED = 0;

export interface SignedZipLimits {
  maxZipBytes: number;
  maxEntries: number;
}

/** Who signs: an Ed25519 key. The key id is the first 16 bytes of the SHA-256 of its SPKI DER, hex. */
export interface ContainerSigner {
  keyId: string;
  publicKeyPem: string;
  privateKeyPem: string;
}

export interface ContainerSignerRecord {
  keyId: string;
  publicKeyPem: string;
  /**
   * Present when an organization's key signed (ES256): the service root key's certificate of that
   * key (config-file-org-key.ts), base64. Whether the root is one to trust, the reader decides.
   */
  certificate?: string;
}

/**
 * What an organization's ES256 key signs of a container: this line, then the manifest's bytes. The
 * same key signs configuration files (a CBOR map) and workstation key lists (their own line), so no
 * signature made for one of those can be taken for a manifest, nor one of these for them.
 */
export const ORGANIZATION_MANIFEST_CONTEXT = 'provisioner-signed-manifest/1\n';

export function organizationSignedBytes(manifestBytes: Uint8Array): Uint8Array {
  const context = strToU8(ORGANIZATION_MANIFEST_CONTEXT);
  const out = new Uint8Array(context.length + manifestBytes.length);
  out.set(context, 0);
  out.set(manifestBytes, context.length);
  return out;
}

export interface SignedZipManifest {
  format: string;
  body: unknown;
  entries: Array<{ name: string; size: number; sha256: string }>;
  signer: ContainerSignerRecord;
}

export interface OpenedSignedZip {
  manifest: SignedZipManifest;
  /** Every entry but the manifest and its signature, each checked against its SHA-256. */
  files: Map<string, Uint8Array>;
}

export function sha256OfBytes(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function containerKeyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 32);
}

export function generateContainerSigner(): ContainerSigner {
  const { privateKey } = generateKeyPairSync('ed25519');
  return containerSignerFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

/** The signer of a kept private key; throws when it is not an Ed25519 private key. */
export function containerSignerFromPem(privateKeyPem: string): ContainerSigner {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`A work package signing key must be Ed25519, not ${key.asymmetricKeyType ?? 'unknown'}.`);
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  return { keyId: containerKeyIdOf(publicKeyPem), publicKeyPem, privateKeyPem };
}

function zipOf(manifestBytes: Uint8Array, signature: Uint8Array, files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  const stored = { level: 0 as const, mtime: ZIP_MTIME };
  zippable[SIGNED_ZIP_MANIFEST] = [manifestBytes, stored];
  zippable[SIGNED_ZIP_SIGNATURE] = [signature, stored];
  for (const name of [...files.keys()].sort()) zippable[name] = [files.get(name)!, stored];
  return zipSync(zippable, stored);
}

/**
 * The manifest's bytes, to be signed: `body`, every file listed with its hash, the signer named.
 * Where the key is elsewhere (an organization's key, on the service), these bytes travel to it and
 * its signature comes back for assembleSignedZip.
 */
export function signedZipManifest(input: {
  format: string;
  body: unknown;
  files: ReadonlyMap<string, Uint8Array>;
  signer: ContainerSignerRecord;
}): Uint8Array {
  for (const name of input.files.keys()) {
    if (
      name === SIGNED_ZIP_MANIFEST ||
      name === SIGNED_ZIP_SIGNATURE ||
      !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(name) ||
      name.split('/').includes('..')
    ) {
      throw new Error(`"${name}" cannot be the name of a file in a signed container.`);
    }
  }
  const manifest: SignedZipManifest = {
    format: input.format,
    body: input.body,
    entries: [...input.files.keys()].sort().map((name) => {
      const bytes = input.files.get(name)!;
      return { name, size: bytes.length, sha256: sha256OfBytes(bytes) };
    }),
    signer: {
      keyId: input.signer.keyId,
      publicKeyPem: input.signer.publicKeyPem,
      ...(input.signer.certificate !== undefined ? { certificate: input.signer.certificate } : {}),
    },
  };
  return strToU8(JSON.stringify(manifest, null, 2));
}

/** The container from a manifest (signedZipManifest), its signature and the files it lists. */
export function assembleSignedZip(
  manifestBytes: Uint8Array,
  signature: Uint8Array,
  files: ReadonlyMap<string, Uint8Array>,
): Uint8Array {
  return zipOf(manifestBytes, signature, files);
}

/** Writes the container signed by an Ed25519 key held here. */
export function buildSignedZip(input: {
  format: string;
  body: unknown;
  files: ReadonlyMap<string, Uint8Array>;
  signer: ContainerSigner;
}): Uint8Array {
  const manifestBytes = signedZipManifest({
    ...input,
    signer: { keyId: input.signer.keyId, publicKeyPem: input.signer.publicKeyPem },
  });
  const signature = new Uint8Array(sign(null, manifestBytes, createPrivateKey(input.signer.privateKeyPem)));
  return zipOf(manifestBytes, signature, input.files);
}

/**
 * Whether `signature` is the named key's over the manifest: Ed25519 (a workstation's key) over the
 * bytes; ES256 (an organization's key, which names its certificate) over the context line and the bytes.
 */
function manifestSignatureHolds(
  manifestBytes: Uint8Array,
  signature: Uint8Array,
  key: KeyObject,
  signer: ContainerSignerRecord,
): boolean {
  if (key.asymmetricKeyType === 'ed25519')
    return signer.certificate === undefined && verify(null, manifestBytes, key, signature);
  if (
    key.asymmetricKeyType === 'ec' &&
    key.asymmetricKeyDetails?.namedCurve === 'prime256v1' &&
    typeof signer.certificate === 'string'
  ) {
    return (
      signature.length === 64 &&
      verify('sha256', organizationSignedBytes(manifestBytes), { key, dsaEncoding: 'ieee-p1363' }, signature)
    );
  }
  return false;
}

function fail(code: string, message: string): never {
  throw new FileFormatError(code, message);
}

class StopListing extends Error {}

/**
 * Opens and checks a container of `format`: a zip within the limits, stored entries only, the
 * manifest signed by the key it names, every entry listed and matching its hash, nothing unlisted,
 * and the file exactly the bytes its contents make. Who the signer is, the caller decides.
 * Codes: WP_NOT_A_PACKAGE (not this kind of file at all), WP_TOO_LARGE, WP_TAMPERED.
 */
export function openSignedZip(
  zip: Uint8Array,
  options: {
    format: string;
    what: string;
    limits: SignedZipLimits;
    /** What to say of a signed file of an earlier format this version no longer takes. */ formerFormats?: Readonly<
      Record<string, string>
    >;
  },
): OpenedSignedZip {
  const { what, limits } = options;
  const tampered = (detail: string): never =>
    fail(
      'WP_TAMPERED',
      `The ${what} has been changed since it was signed (${detail}). Do not use it: ask for a new one.`,
    );
  if (zip.length > limits.maxZipBytes)
    fail('WP_TOO_LARGE', `The ${what} is ${zip.length} bytes, more than the ${limits.maxZipBytes} one may be.`);
  const listed: Array<{ name: string; compression: number }> = [];
  try {
    // The central directory first, inflating nothing: a zip bomb or a compressed entry stops here.
    unzipSync(zip, {
      filter: (file) => {
        listed.push({ name: file.name, compression: file.compression });
        if (listed.length > limits.maxEntries) throw new StopListing();
        return false;
      },
    });
  } catch (error) {
    if (error instanceof StopListing) fail('WP_TOO_LARGE', `The ${what} holds more than ${limits.maxEntries} files.`);
    fail('WP_NOT_A_PACKAGE', `The file is not a ${what}: it is not a zip file. Check that you chose the right file.`);
  }
  if (!listed.some((e) => e.name === SIGNED_ZIP_MANIFEST) || !listed.some((e) => e.name === SIGNED_ZIP_SIGNATURE)) {
    fail(
      'WP_NOT_A_PACKAGE',
      `The file is not a ${what}: it has no signed manifest. Check that you chose the right file.`,
    );
  }
  const compressed = listed.find((e) => e.compression !== STORED);
  if (compressed) tampered(`${compressed.name} is compressed, which a signed container never is`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch {
    return tampered('the zip cannot be read');
  }
  const manifestBytes = entries[SIGNED_ZIP_MANIFEST]!;
  const signature = entries[SIGNED_ZIP_SIGNATURE]!;
  let manifest: SignedZipManifest;
  try {
    manifest = JSON.parse(strFromU8(manifestBytes)) as SignedZipManifest;
  } catch {
    return tampered('its manifest is not JSON');
  }
  if (
    typeof manifest !== 'object' ||
    manifest === null ||
    typeof manifest.signer?.publicKeyPem !== 'string' ||
    !Array.isArray(manifest.entries)
  ) {
    return tampered('its manifest is not one');
  }
  let signerKey: KeyObject;
  try {
    signerKey = createPublicKey(manifest.signer.publicKeyPem);
  } catch {
    return tampered('the signer key in its manifest is not a public key');
  }
  if (!manifestSignatureHolds(manifestBytes, signature, signerKey, manifest.signer))
    tampered('its manifest does not match its signature');
  if (containerKeyIdOf(manifest.signer.publicKeyPem) !== manifest.signer.keyId)
    tampered('the signer key id does not match the key');
  // Signed from here on: the manifest is the one its signer wrote. Which format it says is now trusted.
  if (manifest.format !== options.format && options.formerFormats?.[manifest.format] !== undefined)
    fail('WP_NOT_A_PACKAGE', options.formerFormats[manifest.format]!);
  if (manifest.format !== options.format) {
    fail(
      'WP_NOT_A_PACKAGE',
      `The file is not a ${what}: it is a ${String(manifest.format)} file. Check that you chose the right file.`,
    );
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of manifest.entries) {
    const bytes = entries[entry.name];
    if (bytes === undefined || entry.name === SIGNED_ZIP_MANIFEST || entry.name === SIGNED_ZIP_SIGNATURE)
      tampered(`${entry.name} is missing`);
    if (bytes!.length !== entry.size || sha256OfBytes(bytes!) !== entry.sha256)
      tampered(`${entry.name} does not match its SHA-256`);
    files.set(entry.name, bytes!);
  }
  const extra = Object.keys(entries).filter(
    (name) => name !== SIGNED_ZIP_MANIFEST && name !== SIGNED_ZIP_SIGNATURE && !files.has(name),
  );
  if (extra.length > 0) tampered(`it holds files its manifest does not list: ${extra.join(', ')}`);
  const canonical = zipOf(manifestBytes, signature, files);
  if (
    !Buffer.from(canonical.buffer, canonical.byteOffset, canonical.byteLength).equals(
      Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength),
    )
  )
    tampered('its bytes differ from the ones its signed contents make');
  return { manifest, files };
}
