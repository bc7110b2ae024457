import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';
import { generateReleaseKeyPair } from '../../../../domain/files/firmware-release-key';
import { sha256Hex } from '../../../../domain/files/firmware-bundle';
import { buildWorkPackage, readWorkPackage } from '../../../../domain/files/work-package';
import { signedTestBundle } from '../../../fixtures/release-key';
import { makePackage, packageWorld, rootFingerprintOf } from '../../features/packages/helpers';

/**
 * A forged work package (the project's own package code, a root and organization key made now)
 * that names a plain http:// service on another computer, imported on a laptop never signed in:
 * refused whether or not the technician gives the genuine service's root fingerprint, and whatever
 * API key is offered; no login, key or file is kept, and nothing later names that service. And a
 * genuine package re-signed with a fresh key to carry a release key and a 9.9.9 image of the
 * attacker's, good for 400 days: refused by the laptop that took the genuine one, whose caches and
 * release keys stay as the genuine package left them.
 */

const scratch = useScratchDir('package-forged-origin');

describe('package import of a forged package naming a plain-http remote service', () => {
  it('is refused, and no login, key or file is kept', async () => {
    const genuine = packageWorld();
    const forger = packageWorld();
    const { bytes } = makePackage(forger, { change: (body) => (body.origin.serviceUrl = 'http://203.0.113.7:8080') });
    const home = join(scratch.dir, 'laptop');
    const file = join(scratch.dir, 'forged.pkg');
    await writeFile(file, bytes);
    for (const args of [[], ['--root-fingerprint', rootFingerprintOf(genuine)], ['--api-key', 'pvk_technician-key']]) {
      const run = await runCliIn(home, ['package', 'import', file, ...args]);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toMatch(
        /^error: (This laptop has never been signed in to http:\/\/203\.0\.113\.7:8080|The work package carries a root key with fingerprint|package import takes no API key)/,
      );
    }
    const status = await runCliIn(home, ['--json', 'status']);
    expect(status.stdout).not.toContain('203.0.113.7');
    expect(JSON.parse(status.stdout).account).toEqual({ kind: 'local-workspace' });
    const kept = await readdir(home, { recursive: true }).catch(() => [] as string[]);
    expect(
      kept.filter((name) => /credentials|work-packages|accounts|config-file-signing-key/.test(String(name))),
    ).toEqual([]);
  });

  it("a genuine package re-signed with a fresh key, carrying the attacker's release key and image, is refused and changes nothing", async () => {
    const world = packageWorld();
    const genuine = makePackage(world);
    const home = join(scratch.dir, 'plant-laptop');
    const genuineFile = join(scratch.dir, 'genuine.pkg');
    await writeFile(genuineFile, genuine.bytes);
    const first = await runCliIn(home, [
      'package',
      'import',
      genuineFile,
      '--root-fingerprint',
      rootFingerprintOf(world),
    ]);
    expect(first.code, first.stderr).toBe(0);
    const listing = async () => JSON.parse((await runCliIn(home, ['--json', 'cache', 'list'])).stdout) as unknown;
    const before = await listing();
    const keptFiles = async () => {
      const names = (await readdir(home, { recursive: true }))
        .map(String)
        .filter((name) => /accounts|work-packages|firmware-cache/.test(name))
        .sort();
      return Promise.all(
        names.map(async (name) => [name, await readFile(join(home, name)).catch(() => 'a directory')] as const),
      );
    };
    const filesBefore = await keptFiles();

    // The attacker's rework of the genuine package: its own release key and image, 400 days, signed by a key made now.
    const opened = readWorkPackage(genuine.bytes);
    const attackerRelease = generateReleaseKeyPair();
    const image = signedTestBundle('EPC', '9.9.9', 2048, { key: attackerRelease });
    const files = new Map(opened.files).set('firmware/EPC-9.9.9.zip', image);
    const body = structuredClone(opened.body);
    body.expiresAt = new Date(Date.parse(body.createdAt) + 400 * 86_400_000).toISOString();
    body.keys.firmwareReleaseKeys.push({
      keyId: attackerRelease.keyId,
      name: 'attacker',
      algorithm: 'Ed25519',
      publicKeyPem: attackerRelease.publicKeyPem,
      trustedAt: body.createdAt,
    });
    body.firmware.push({
      deviceType: 'EPC',
      version: '9.9.9',
      sha256: sha256Hex(image),
      file: 'firmware/EPC-9.9.9.zip',
    });
    body.devices[0]!.firmware = { version: '9.9.9', sha256: sha256Hex(image) };
    const resignedFile = join(scratch.dir, 'resigned.pkg');
    await writeFile(resignedFile, buildWorkPackage(body, files, packageWorld().signer));

    for (const args of [[], ['--root-fingerprint', rootFingerprintOf(world)]]) {
      const run = await runCliIn(home, ['package', 'import', resignedFile, ...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(
        /^error: The work package is not signed by organization plant-org of the service this laptop trusts \(its signing key is certified by another root key\)/,
      );
    }
    expect(await listing()).toEqual(before);
    expect(await keptFiles()).toEqual(filesBefore);
  });
});
