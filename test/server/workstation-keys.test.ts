import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, LEDGER_FORMAT, ledgerSignerKeyOf, signLedgerEntry, type LedgerEntry } from '../../domain/ledger';
import { signedWorkstationKeyListSchema, verifyWorkstationKeyList } from '../../domain/workstation-key-list';
import { signEnrolmentProof, workstationKeyFault } from '../../domain/workstation-keys';
import { backends, codes, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Workstation keys, as the attacker tries them over HTTP: an entry is taken only when the key
 * enrolled for the workstation it names signed it. Each forgery is built with the project's own
 * ledger code and a key made a moment before, and the organization's chain is shown unchanged.
 */

interface Workstation {
  id: string;
  privateKeyPem: string;
  publicKey: string;
  seq: number;
  prevHash: string;
}

let counter = 0;
function newWorkstation(id = `ws-${++counter}-${Date.now().toString(36)}`): Workstation {
  const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { id, privateKeyPem, publicKey: ledgerSignerKeyOf(privateKeyPem), seq: 0, prevHash: GENESIS_HASH };
}

/** The next entry of `ws`'s ledger, signed by `signer` (the workstation itself unless an attacker). */
function entryOf(
  ws: Workstation,
  orgId: string,
  outcome: 'success' | 'failure',
  signer: Workstation = ws,
): LedgerEntry {
  const entry = signLedgerEntry(
    {
      format: LEDGER_FORMAT,
      seq: ws.seq + 1,
      at: new Date(Date.UTC(2026, 5, 1, 0, 0, ws.seq + 1)).toISOString(),
      action: 'function-test',
      outcome,
      serialNumber: 'EPC000101',
      workstation: ws.id,
      orgId,
      facts: { result: outcome === 'success' ? 'passed' : 'failed' },
      prevHash: ws.prevHash,
      signerKey: signer.publicKey,
    },
    signer.privateKeyPem,
  );
  if (signer === ws) {
    ws.seq = entry.seq;
    ws.prevHash = entry.hash;
  }
  return entry;
}

function enrolment(ws: Workstation, orgId: string, rotate?: boolean) {
  return {
    workstation: ws.id,
    publicKey: ws.publicKey,
    proof: signEnrolmentProof({ orgId, workstation: ws.id, publicKey: ws.publicKey }, ws.privateKeyPem),
    ...(rotate ? { rotate } : {}),
  };
}

async function chainRows(env: TestEnv): Promise<string[]> {
  const { rows } = await env.db.query<{ entry_hash: string }>(
    'SELECT entry_hash FROM ledger_entries WHERE org_id = $1 ORDER BY org_seq',
    [env.orgId],
  );
  return rows.map((row) => row.entry_hash);
}

async function keyRows(env: TestEnv): Promise<unknown[]> {
  const { rows } = await env.db.query(
    'SELECT * FROM workstation_keys WHERE org_id = $1 ORDER BY enrolled_at, public_key',
    [env.orgId],
  );
  return rows;
}

describe.each(backends())('workstation keys on %s', (backend) => {
  const env = serviceForTests(backend);

  it('takes entries only from the key enrolled for the workstation they name; a fresh key is refused, and nothing is added', async () => {
    const ws = newWorkstation();
    const operator = await env.keyFor('Operator');
    const first = entryOf(ws, env.orgId, 'failure');

    // Not enrolled yet: refused.
    const early = await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [first] } });
    expect(early.status).toBe(403);
    expect(codes(early)).toEqual(['LEDGER_KEY_NOT_ENROLLED']);
    expect(early.json.errors![0]!.message).toMatch(/has no enrolled key/);

    const enrolled = await env.call('POST', '/workstations/keys', { key: operator, body: enrolment(ws, env.orgId) });
    expect(enrolled.status, JSON.stringify(enrolled.json)).toBe(200);
    expect(enrolled.json.data).toMatchObject({
      enrolled: true,
      key: { workstation: ws.id, publicKey: ws.publicKey, status: 'active', enrolledBy: expect.any(String) },
    });
    const again = await env.call('POST', '/workstations/keys', { key: operator, body: enrolment(ws, env.orgId) });
    expect(again.json.data.enrolled).toBe(false);

    expect(
      (await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [first] } })).json.data,
    ).toEqual({ received: 1, known: 0 });
    const before = await chainRows(env);

    // The attacker's "function test passed" after the real failure, linked correctly, under the
    // workstation's id (readable from device records), signed by a key made just now.
    const attacker = newWorkstation(ws.id);
    const forged = entryOf({ ...ws }, env.orgId, 'success', attacker);
    const refused = await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [forged] } });
    expect(refused.status).toBe(403);
    expect(codes(refused)).toEqual(['LEDGER_KEY_NOT_ENROLLED']);
    expect(refused.json.errors![0]!.message).toMatch(
      new RegExp(`names workstation ${ws.id} but is signed by key .* not that workstation's enrolled key`),
    );

    // Mixed with a genuine entry, the batch is refused whole.
    const genuine = entryOf(ws, env.orgId, 'success');
    const mixed = await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [genuine, forged] } });
    expect(mixed.status).toBe(403);
    expect(await chainRows(env)).toEqual(before);

    // The attacker cannot enrol their key for that workstation, nor someone else's key for theirs.
    const second = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: enrolment(attacker, env.orgId),
    });
    expect(second.status).toBe(409);
    expect(codes(second)).toEqual(['WORKSTATION_HAS_KEY']);
    const stolenPublicKey = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(attacker, env.orgId), workstation: 'attacker-ws', publicKey: ws.publicKey },
    });
    expect(stolenPublicKey.status).toBe(400);
    expect(codes(stolenPublicKey)).toEqual(['WORKSTATION_PROOF_INVALID']);
    // A proof made for another organization does not enrol here either.
    const elsewhere = newWorkstation();
    const otherOrgProof = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(elsewhere, 'other-org') },
    });
    expect(codes(otherOrgProof)).toEqual(['WORKSTATION_PROOF_INVALID']);
    // Only an Admin rotates.
    const operatorRotation = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: enrolment(attacker, env.orgId, true),
    });
    expect(operatorRotation.status).toBe(403);
    expect(codes(operatorRotation)).toEqual(['WORKSTATION_ROTATION_ADMIN_ONLY']);
    expect(await chainRows(env)).toEqual(before);

    expect(
      (await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [genuine] } })).json.data,
    ).toEqual({ received: 1, known: 0 });
  });

  it("an Admin's rotation ends the old key: its entries received stay, any later one is refused; the signed list says so", async () => {
    const ws = newWorkstation();
    const operator = await env.keyFor('Operator');
    await env.call('POST', '/workstations/keys', { key: operator, body: enrolment(ws, env.orgId) });
    const sent = entryOf(ws, env.orgId, 'success');
    await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [sent] } });
    const unsent = entryOf(ws, env.orgId, 'success');

    const replacement = newWorkstation(ws.id);
    const rotated = await env.call('POST', '/workstations/keys', { body: enrolment(replacement, env.orgId, true) });
    expect(rotated.status, JSON.stringify(rotated.json)).toBe(200);
    const late = await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [unsent] } });
    expect(codes(late)).toEqual(['LEDGER_KEY_NOT_ENROLLED']);
    expect(late.json.errors![0]!.message).toMatch(/replaced by a rotation .* only its entries up to 1 stay good/);
    // The entry received before the rotation is still known, not refused.
    expect((await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [sent] } })).json.data).toEqual(
      { received: 0, known: 1 },
    );
    // The retired key never comes back.
    const back = await env.call('POST', '/workstations/keys', { body: enrolment(ws, env.orgId, true) });
    expect(codes(back)).toEqual(['WORKSTATION_KEY_TAKEN']);

    const root = (await env.call('GET', '/v1/config-file-signing-key', { key: null })).json.data as {
      publicKeyPem: string;
    };
    const list = signedWorkstationKeyListSchema.parse(
      (await env.call('GET', '/workstations/keys', { key: operator })).json.data,
    );
    const body = verifyWorkstationKeyList(list, { rootKeyPem: root.publicKeyPem, orgId: env.orgId });
    const mine = body.keys.filter((key) => key.workstation === ws.id);
    expect(mine.map((key) => [key.publicKey, key.status, key.validThroughSeq])).toEqual([
      [ws.publicKey, 'rotated', 1],
      [replacement.publicKey, 'active', null],
    ]);
    expect(workstationKeyFault(sent, body.keys)).toBeUndefined();
    expect(workstationKeyFault(unsent, body.keys)).toMatch(/replaced by a rotation/);
  });

  it("a revoked key signs nothing more, with the reason; the signed list cannot be altered or passed off as another organization's", async () => {
    const ws = newWorkstation();
    const operator = await env.keyFor('Operator');
    await env.call('POST', '/workstations/keys', { key: operator, body: enrolment(ws, env.orgId) });
    await env.call('POST', '/ledger/entries', {
      key: operator,
      body: { entries: [entryOf(ws, env.orgId, 'success')] },
    });
    const keysBefore = await keyRows(env);
    const byOperator = await env.call('POST', `/workstations/${ws.id}/revoke`, {
      key: operator,
      body: { reason: 'laptop stolen' },
    });
    expect(byOperator.status).toBe(403);
    expect(await keyRows(env)).toEqual(keysBefore);

    const revoked = await env.call('POST', `/workstations/${ws.id}/revoke`, { body: { reason: 'laptop stolen' } });
    expect(revoked.status, JSON.stringify(revoked.json)).toBe(200);
    expect(revoked.json.data).toMatchObject({ status: 'revoked', reason: 'laptop stolen', validThroughSeq: 1 });
    const after = entryOf(ws, env.orgId, 'success');
    const refused = await env.call('POST', '/ledger/entries', { key: operator, body: { entries: [after] } });
    expect(codes(refused)).toEqual(['LEDGER_KEY_NOT_ENROLLED']);
    expect(refused.json.errors![0]!.message).toMatch(/revoked .* \(laptop stolen\)/);
    expect(codes(await env.call('POST', `/workstations/${ws.id}/revoke`, { body: { reason: 'again' } }))).toEqual([
      'WORKSTATION_KEY_NOT_FOUND',
    ]);

    const root = (await env.call('GET', '/v1/config-file-signing-key', { key: null })).json.data as {
      publicKeyPem: string;
    };
    const list = signedWorkstationKeyListSchema.parse(
      (await env.call('GET', '/workstations/keys', { key: operator })).json.data,
    );
    // One key turned active again in the text: the signature no longer holds.
    const altered = { ...list, body: list.body.replace('"status":"revoked"', '"status":"active"') };
    expect(altered.body).not.toBe(list.body);
    expect(() => verifyWorkstationKeyList(altered, { rootKeyPem: root.publicKeyPem, orgId: env.orgId })).toThrow(
      /signature does not hold/,
    );
    expect(() => verifyWorkstationKeyList(list, { rootKeyPem: root.publicKeyPem, orgId: 'other-org' })).toThrow(
      /not of other-org/,
    );
    const fakeRoot = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    expect(() => verifyWorkstationKeyList(list, { rootKeyPem: fakeRoot, orgId: env.orgId })).toThrow(
      /not signed by a key the trusted root key certifies/,
    );
  });
  it("a work package's grant enrols one key, once, until it expires; a made-up or spent grant enrols nothing", async () => {
    const operator = await env.keyFor('Operator');
    const packageId = '00000000-0000-4000-8000-0000000000aa';
    const issued = await env.call('POST', '/workstations/grants', {
      key: operator,
      body: { packageId, expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(issued.status, JSON.stringify(issued.json)).toBe(201);
    const grant = { grantId: issued.json.data.grantId as string, token: issued.json.data.token as string };
    const { rows: stored } = await env.db.query<{ token_sha256: string }>(
      'SELECT token_sha256 FROM workstation_enrolment_grants WHERE grant_id = $1',
      [grant.grantId],
    );
    expect(stored[0]!.token_sha256).not.toContain(grant.token);
    expect(
      codes(
        await env.call('POST', '/workstations/grants', {
          key: operator,
          body: { packageId, expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
        }),
      ),
    ).toEqual(['WORKSTATION_GRANT_INVALID']);

    const plant = newWorkstation();
    const keysBefore = await keyRows(env);
    const wrongToken = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(plant, env.orgId), grant: { ...grant, token: `${grant.token.slice(0, -2)}xx` } },
    });
    expect(wrongToken.status).toBe(403);
    expect(codes(wrongToken)).toEqual(['WORKSTATION_GRANT_INVALID']);
    expect(await keyRows(env)).toEqual(keysBefore);

    const used = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(plant, env.orgId), grant },
    });
    expect(used.status, JSON.stringify(used.json)).toBe(200);
    expect(used.json.data.key.enrolledBy).toMatch(new RegExp(`with the enrolment grant of work package ${packageId}`));
    // The same file imported again: the same key, nothing new.
    expect(
      (await env.call('POST', '/workstations/keys', { key: operator, body: { ...enrolment(plant, env.orgId), grant } }))
        .json.data.enrolled,
    ).toBe(false);
    // Whoever copied the USB stick cannot use the grant again for their own key.
    const thief = newWorkstation();
    const spent = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(thief, env.orgId), grant },
    });
    expect(codes(spent)).toEqual(['WORKSTATION_GRANT_INVALID']);
    expect(spent.json.errors![0]!.message).toMatch(/used on .* for another key/);

    // An expired grant.
    await env.db.query(
      `UPDATE workstation_enrolment_grants SET expires_at = now() - interval '1 day', used_at = NULL, used_key = NULL WHERE grant_id = $1`,
      [grant.grantId],
    );
    const late = await env.call('POST', '/workstations/keys', {
      key: operator,
      body: { ...enrolment(thief, env.orgId), grant },
    });
    expect(late.json.errors![0]!.message).toMatch(/expired with its work package/);
    expect((await keyRows(env)).length).toBe(keysBefore.length + 1);
  });
});
