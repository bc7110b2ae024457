import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import {
  buildFirmwareBundle,
  makeFirmwareImage,
  readFirmwareBundle,
  releaseKeyFromPem,
  SIGNED_MANIFEST_FILE,
  verifyFirmwareBundleSignature,
  type ReleaseKeyring,
} from '../../domain/files';
import { firmwareReleaseKeySchema } from '../../domain/files/firmware-release-key';
import { issueKey, startService, type RunningService } from '../../server';
import { runInProcess, useOperatorDataDir } from './cli-run';

/**
 * Only firmware signed by a release key the service trusts gets into the service, and only that is
 * served. The operator commands run in-process on one data directory; the HTTP checks start the
 * service on the same directory afterwards.
 */

const operator = useOperatorDataDir('fw-signing');
const cli = (...args: string[]) => runInProcess([...args, '--data', operator.data]);
/** Where the release keys the tests make are written, beside the data directory. */
const keysDir = () => join(operator.dir, 'keys');

function keyIdPrinted(out: string): string {
  const match = /^([0-9a-f]{32})\n/.exec(out);
  if (!match) throw new Error(`no key id in ${out}`);
  return match[1]!;
}

function unsignedCopy(zip: string, to: string): string {
  const { [SIGNED_MANIFEST_FILE]: _signature, ...rest } = unzipSync(new Uint8Array(readFileSync(zip)));
  writeFileSync(to, zipSync(rest));
  return to;
}

describe('release keys and signed imports through the operator commands', () => {
  let ownerId: string;

  it('makes a key pair whose private half only its owner can read, and never overwrites one', async () => {
    const created = await runInProcess(['release-key', 'create', '--out', keysDir(), '--name', 'owner']);
    expect(created.code).toBe(0);
    ownerId = keyIdPrinted(created.out);
    expect(statSync(join(keysDir(), 'owner.pem')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(keysDir(), 'owner.pub'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(releaseKeyFromPem(readFileSync(join(keysDir(), 'owner.pub'), 'utf8'), 'owner').keyId).toBe(ownerId);
    const again = await runInProcess(['release-key', 'create', '--out', keysDir(), '--name', 'owner']);
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/never overwritten/) });
  });

  it('refuses a bundle signed by a key it does not trust, then imports it once the key is trusted', async () => {
    const zip = join(operator.dir, 'epc-3.0.0.zip');
    const built = await cli(
      'firmware',
      'build',
      '--type',
      'EPC',
      '--version',
      '3.0.0',
      '--size',
      '2048',
      '--out',
      zip,
      '--release-key',
      join(keysDir(), 'owner.pem'),
    );
    expect(built.out).toContain(`signed by release key ${ownerId}`);
    const refused = await cli('firmware', 'import', zip, '--type', 'EPC', '--version', '3.0.0');
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('FW_UNTRUSTED_KEY') });

    const trusted = await cli('release-key', 'trust', join(keysDir(), 'owner.pub'));
    expect(trusted.out).toBe(`trusted release key ${ownerId} (owner)\n`);
    expect((await cli('release-key', 'trust', join(keysDir(), 'owner.pub'))).out).toMatch(
      /already trusted, as "owner"/,
    );
    const imported = await cli('firmware', 'import', zip, '--type', 'EPC', '--version', '3.0.0');
    expect(imported.code).toBe(0);
    expect(imported.out).toMatch(
      new RegExp(`^imported EPC firmware 3\\.0\\.0 .*signed by owner \\(${ownerId}\\), security counter 0\\n$`),
    );
  });

  it('refuses an unsigned bundle and one whose image was swapped after signing', async () => {
    const zip = join(operator.dir, 'epc-3.0.0.zip');
    const unsigned = await cli(
      'firmware',
      'import',
      unsignedCopy(zip, join(operator.dir, 'unsigned.zip')),
      '--type',
      'EPC',
      '--version',
      '3.0.0',
    );
    expect(unsigned).toMatchObject({ code: 1, err: expect.stringContaining('FW_UNSIGNED') });
    const files = unzipSync(new Uint8Array(readFileSync(zip)));
    const evil = makeFirmwareImage('EPC', '3.0.0', 2048).map((byte, i) => (i === 1000 ? byte ^ 1 : byte));
    const listing = JSON.parse(Buffer.from(files['manifest.json']!).toString()) as {
      images: Array<{ sha256: string }>;
    };
    listing.images[0]!.sha256 = readFirmwareBundle(
      buildFirmwareBundle({
        deviceType: 'EPC',
        version: '3.0.0',
        image: evil,
        releaseKeyPem: readFileSync(join(keysDir(), 'owner.pem'), 'utf8'),
      }),
    ).imageSha256;
    writeFileSync(
      join(operator.dir, 'swapped.zip'),
      zipSync({ ...files, 'manifest.json': strToU8(JSON.stringify(listing)), 'application.bin': evil }),
    );
    const swapped = await cli(
      'firmware',
      'import',
      join(operator.dir, 'swapped.zip'),
      '--type',
      'EPC',
      '--version',
      '3.0.0',
    );
    expect(swapped).toMatchObject({ code: 1, err: expect.stringContaining('FW_BAD_SIGNATURE') });
  });

  it('trusts only Ed25519 public keys', async () => {
    const ec = join(operator.dir, 'p256.pub');
    writeFileSync(
      ec,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    expect(await cli('release-key', 'trust', ec)).toMatchObject({
      code: 1,
      err: expect.stringMatching(/Ed25519.*RELEASE_KEY_INVALID/),
    });
  });

  it("signs with the data directory's default release key when none is given, made private and trusted on first use", async () => {
    const zip = join(operator.dir, 'srcp-3.0.0.zip');
    const built = await cli(
      'firmware',
      'build',
      '--type',
      'SRCP',
      '--version',
      '3.0.0',
      '--size',
      '1024',
      '--out',
      zip,
    );
    expect(built.code).toBe(0);
    expect(statSync(join(operator.data, 'release-keys', 'default.pem')).mode & 0o777).toBe(0o600);
    const defaultId = releaseKeyFromPem(
      readFileSync(join(operator.data, 'release-keys', 'default.pub'), 'utf8'),
      'default',
    ).keyId;
    expect(built.out).toContain(`signed by release key ${defaultId}`);
    expect((await cli('firmware', 'import', zip, '--type', 'SRCP', '--version', '3.0.0')).out).toContain(
      `signed by default release key (${defaultId})`,
    );
    // The same key the second time.
    expect(
      (
        await cli(
          'firmware',
          'build',
          '--type',
          'SRCP',
          '--version',
          '3.0.1',
          '--size',
          '1024',
          '--out',
          join(operator.dir, 'srcp-3.0.1.zip'),
        )
      ).out,
    ).toContain(defaultId);
  });

  it('rotates: with two keys trusted, a release signed by the new one retires the old, whose bundles are then refused and whose key is never trusted again', async () => {
    const successor = keyIdPrinted(
      (await runInProcess(['release-key', 'create', '--out', keysDir(), '--name', 'successor'])).out,
    );
    await cli('release-key', 'trust', join(keysDir(), 'successor.pub'));
    const byOwner = join(operator.dir, 'nscp-5.0.0.zip');
    await cli(
      'firmware',
      'build',
      '--type',
      'NSCP',
      '--version',
      '5.0.0',
      '--size',
      '1024',
      '--out',
      byOwner,
      '--release-key',
      join(keysDir(), 'owner.pem'),
    );
    expect((await cli('firmware', 'import', byOwner, '--type', 'NSCP', '--version', '5.0.0')).code).toBe(0);

    const rotation = join(operator.dir, 'nscp-4.9.0.zip');
    const built = await cli(
      'firmware',
      'build',
      '--type',
      'NSCP',
      '--version',
      '4.9.0',
      '--size',
      '1024',
      '--out',
      rotation,
      '--release-key',
      join(keysDir(), 'successor.pem'),
      '--retires',
      ownerId,
      '--security-counter',
      '2',
    );
    expect(built.code).toBe(0);
    const imported = await cli('firmware', 'import', rotation, '--type', 'NSCP', '--version', '4.9.0');
    expect(imported.out).toContain(`signed by successor (${successor}), security counter 2`);
    expect(imported.out).toContain(`retired release key ${ownerId}\n`);

    const late = join(operator.dir, 'nscp-5.1.0.zip');
    await cli(
      'firmware',
      'build',
      '--type',
      'NSCP',
      '--version',
      '5.1.0',
      '--size',
      '1024',
      '--out',
      late,
      '--release-key',
      join(keysDir(), 'owner.pem'),
    );
    expect(await cli('firmware', 'import', late, '--type', 'NSCP', '--version', '5.1.0')).toMatchObject({
      code: 1,
      err: expect.stringContaining('FW_KEY_RETIRED'),
    });
    expect(await cli('release-key', 'trust', join(keysDir(), 'owner.pub'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/never trusted again/),
    });
    const listed = JSON.parse((await cli('release-key', 'list', '--json')).out) as Array<{
      keyId: string;
      retiredBy: string | null;
    }>;
    expect(listed.find((k) => k.keyId === ownerId)).toMatchObject({ retiredBy: successor });
    expect((await cli('release-key', 'list')).out).toMatch(new RegExp(`${ownerId}  owner  retired .* by ${successor}`));
  });
});

describe('what the service serves', () => {
  let service: RunningService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startService({ dataDir: operator.data, port: 0 });
    apiKey = await issueKey(service.db, { orgId: 'demo', name: 'firmware-reader', role: 'Service' });
    // A row from before signatures were required, put there behind the import's back.
    const legacy = readFileSync(join(operator.dir, 'unsigned.zip'));
    await service.db.query(
      `INSERT INTO firmware_bundles (device_type, version, bundle, sha256, size, manifest) VALUES ('WESP', '99.0.0', $1, 'x', $2, '{}'::jsonb)`,
      [new Uint8Array(legacy), legacy.length],
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  async function releaseKeys(): Promise<ReleaseKeyring> {
    const response = await fetch(`${service.url}/v1/firmware-release-keys`);
    expect(response.status).toBe(200);
    const listed = (await response.json()) as { data: unknown[] };
    const records = listed.data.map((record) => firmwareReleaseKeySchema.parse(record));
    return { keys: records.map((r) => releaseKeyFromPem(r.publicKeyPem, r.name)), retiredKeyIds: [] };
  }

  async function latestBundle(
    type: string,
  ): Promise<{ keyIdHeader: string | null; version: string | null; bytes: Uint8Array }> {
    const response = await fetch(`${service.url}/v1/organizations/demo/devices/types/${type}/firmware`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(response.status).toBe(200);
    return {
      keyIdHeader: response.headers.get('x-firmware-release-key-id'),
      version: response.headers.get('x-firmware-version'),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  }

  it('lists its trusted release keys without an API key, leaving retired ones out', async () => {
    const keyring = await releaseKeys();
    const names = keyring.keys.map((k) => k.name).sort();
    expect(names).toEqual(['default release key', 'demo release key', 'successor']);
  });

  it('serves bundles with their signature inside and the signing key named in a header, verifiable with the listed keys', async () => {
    const keyring = await releaseKeys();
    const srcp = await latestBundle('SRCP');
    expect(srcp.version).toBe('3.0.0');
    const verified = verifyFirmwareBundleSignature(readFirmwareBundle(srcp.bytes), keyring);
    expect(verified.key).toMatchObject({ keyId: srcp.keyIdHeader, name: 'default release key' });
  });

  it('no longer serves what a retired key signed, nor an unsigned bundle from before', async () => {
    // NSCP 5.0.0 (the retired owner's) is the highest version, but 4.9.0 (the successor's) is served.
    expect((await latestBundle('NSCP')).version).toBe('4.9.0');
    // WESP 99.0.0 has no signature: the demo's 1.1.0 is served.
    expect((await latestBundle('WESP')).version).toBe('1.1.0');
    // EPC 3.0.0 was signed by the owner key, retired since: the demo's 1.1.0 again.
    expect((await latestBundle('EPC')).version).toBe('1.1.0');
  });
});
