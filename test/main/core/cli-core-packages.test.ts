import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../contract/index';
import { generateSigningKeyPair, rootKeyFingerprint } from '../../../domain/files/config-file-signature';
import { readWorkConfirmations } from '../../../domain/files/work-package-confirmations';
import { createServiceClient } from '../../../main/cloud';
import { LOCAL_WORKSPACE_SERVICE, type CliCore } from '../../../main/core';
import { provisioningPaths, SigningKeyStore } from '../../../main/engine/jobs';
import { Outbox } from '../../../main/engine/outbox/outbox';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: the CLI's `package …` through the door (createCliCore's `packages.*` file channels).
 * A file that is not a work package is refused before anything is kept; input the contract does
 * not take is refused with what it should be; the local workspace makes no package; an empty
 * outbox is refused as codes, and what waits is signed by this workstation's ledger key and stays. The
 * client points at a loopback port nobody listens on: none of these asks the service.
 */

let dataDir = '';
let core: CliCore | undefined;
let serviceUrl = 'http://127.0.0.1:9';
let signedIn = true;

function start(): CliCore {
  core = cliCoreFor(
    dataDir,
    {
      serviceUrl,
      orgId: 'org-1',
      client: createServiceClient({ baseUrl: 'http://127.0.0.1:9', orgId: 'org-1', apiKey: 'k' }),
    },
    { savedLogin: async () => (signedIn ? { serviceUrl, orgId: 'org-1', keyName: null } : undefined) },
  );
  return core;
}

/** What the import may have kept: the records of imported packages and the account's stores. */
async function keptFiles(): Promise<string[]> {
  return (await readdir(dataDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** An outbox with one firmware confirmation waiting, as a job files it (read here, never sent). */
async function oneWaiting() {
  const outbox = new Outbox({
    dir: provisioningPaths(dataDir).outbox,
    sender: { send: () => Promise.reject(new Error('not sending')) },
  });
  const waiting = await outbox.enqueue({
    kind: 'firmware',
    serviceUrl: 'http://127.0.0.1:9',
    orgId: 'org-1',
    serialNumber: 'EPC000101',
    payload: {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '2.1.0',
      applyTimeStamp: '2026-03-02T10:00:00.000Z',
    },
  });
  return { outbox, waiting };
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-core-packages-'));
  serviceUrl = 'http://127.0.0.1:9';
  signedIn = true;
});
afterEach(async () => {
  await core?.close();
  core = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

describe("the CLI core's work package channels", () => {
  it('packages.import refuses a file that is not a work package, signed in or not, and keeps nothing', async () => {
    const notAPackage = Buffer.from('PK\u0003\u0004 not really a zip').toString('base64');
    await expect(start().invoke('packages.import', { contentBase64: notAPackage })).rejects.toThrow(/work package/i);
    await core!.close();
    signedIn = false;
    await expect(start().invoke('packages.import', { contentBase64: notAPackage })).rejects.toThrow(/work package/i);
    expect(await keptFiles()).toEqual([]);
  });

  it('packages.import refuses what is not base64, an empty file and a malformed root fingerprint', async () => {
    const cli = start();
    const invalid = (input: Record<string, unknown>) =>
      cli.invoke('packages.import', input as never).then(
        () => undefined,
        (error: unknown) => error,
      );
    const notBase64 = await invalid({ contentBase64: 'not base64!' });
    expect(notBase64).toBeInstanceOf(CoreError);
    expect((notBase64 as CoreError).code).toBe('INVALID_INPUT');
    expect((notBase64 as CoreError).message).toMatch(/contentBase64: not base64/);
    // An empty file is the file check's to refuse, in the words `package import` always said.
    await expect(cli.invoke('packages.import', { contentBase64: '' })).rejects.toThrow(/work package/i);
    expect(((await invalid({ contentBase64: 'AAAA', rootFingerprint: 'AB:CD' })) as CoreError).message).toMatch(
      /rootFingerprint: a root key fingerprint: 64 lowercase hex digits/,
    );
    expect(await keptFiles()).toEqual([]);
  });

  it('packages.exportByName refuses the local workspace and a validity that is not a whole number of days', async () => {
    serviceUrl = LOCAL_WORKSPACE_SERVICE;
    const cli = start();
    await expect(cli.invoke('packages.exportByName', { configurationName: 'Loader 7' })).rejects.toThrow(
      /local workspace is on this computer only/,
    );
    await expect(
      cli.invoke('packages.exportByName', { configurationName: 'Loader 7', expiresInDays: 0 }),
    ).rejects.toThrow(/expiresInDays: days a package is valid/);
    await expect(cli.invoke('packages.exportByName', { configurationName: '' })).rejects.toThrow(
      /name the configuration/,
    );
  });

  it('packages.exportConfirmations refuses an empty outbox with the refusal as codes, and signs what waits with the ledger key', async () => {
    const cli = start();
    const empty = await cli.invoke('packages.exportConfirmations', {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(empty).toBeInstanceOf(CoreError);
    expect((empty as CoreError).workPackageRefusal).toEqual({ kind: 'nothingToExport' });

    const { outbox, waiting } = await oneWaiting();
    const exported = await cli.invoke('packages.exportConfirmations', {});
    const file = readWorkConfirmations(new Uint8Array(Buffer.from(exported.contentBase64, 'base64')));
    expect(file.body).toEqual(exported.body);
    expect(file.signer.keyId).toBe(exported.signerKeyId);
    expect(exported.body.confirmations.map(({ id, serialNumber, kind }) => ({ id, serialNumber, kind }))).toEqual([
      { id: waiting.id, serialNumber: 'EPC000101', kind: 'firmware' },
    ]);
    // Carried, not taken: the outbox still sends it when this laptop comes back online.
    expect((await outbox.list()).map((entry) => entry.id)).toEqual([waiting.id]);
  });

  it('packages.rootFingerprint: none without a kept key, the kept one when the service cannot be reached', async () => {
    // Signed in, the service (a port nobody listens on) is asked once and does not answer; nothing is kept yet.
    expect(await start().invoke('packages.rootFingerprint', {})).toEqual({ rootFingerprint: null });
    const root = generateSigningKeyPair();
    await new SigningKeyStore({ dir: provisioningPaths(dataDir).account('http://127.0.0.1:9', 'org-1').keys }).keep(
      { keyId: root.keyId, algorithm: 'ES256', publicKeyPem: root.publicKeyPem },
      '2026-03-02T10:00:00.000Z',
    );
    expect(await core!.invoke('packages.rootFingerprint', {})).toEqual({
      rootFingerprint: rootKeyFingerprint(root.publicKeyPem),
    });
    // Neither signed in nor given a package: no account names a key, so none is said (and no workspace opens).
    await core!.close();
    signedIn = false;
    expect(await start().invoke('packages.rootFingerprint', {})).toEqual({ rootFingerprint: null });
  });

  it('outbox.pending counts what waits without sending it', async () => {
    const cli = start();
    expect(await cli.invoke('outbox.pending', {})).toEqual({
      count: 0,
      oldestCreatedAt: null,
      rejected: 0,
      unreadable: 0,
      quarantined: 0,
    });
    const { outbox, waiting } = await oneWaiting();
    expect(await cli.invoke('outbox.pending', {})).toMatchObject({
      count: 1,
      oldestCreatedAt: waiting.createdAt,
      rejected: 0,
    });
    expect((await outbox.list()).map((entry) => entry.attempts)).toEqual([0]);
  });

  it('packages.importConfirmations refuses a file that is not a confirmations file', async () => {
    const notAFile = Buffer.from('nothing signed here').toString('base64');
    await expect(start().invoke('packages.importConfirmations', { contentBase64: notAFile })).rejects.toThrow(
      /confirmations file/i,
    );
  });
});
