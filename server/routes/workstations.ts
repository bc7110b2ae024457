import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { MAX_WORK_PACKAGE_DAYS } from '../../domain/files/work-package';
import { signedWorkstationKeyListSchema, signWorkstationKeyList } from '../../domain/workstation-key-list';
import {
  enrolledWorkstationKeySchema,
  enrolmentGrantSchema,
  enrolmentProofHolds,
  workstationEnrolmentResultSchema,
  workstationEnrolmentSchema,
  workstationIdSchema,
} from '../../domain/workstation-keys';
import { organizationSigner } from '../configurations/organization-keys';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { orgParams } from '../http/schemas';
import {
  enrolWorkstationKey,
  findEnrolmentGrant,
  issueEnrolmentGrant,
  listWorkstationKeys,
  revokeWorkstationKey,
  useEnrolmentGrant,
} from '../store/workstation-keys';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Workstation keys (ours): a signed-in user enrols the workstation's ledger key; the service then
 * takes that workstation's ledger entries only when that key signed them (routes/ledger.ts). An
 * Admin rotates or revokes a key. The list of keys, signed by the organization's key, lets a
 * workstation check entries offline.
 */
export const workstationOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'workstations.enrol',
    method: 'POST',
    path: '/organizations/:orgId/workstations/keys',
    tag: 'Ledger',
    summary: "Enrols a workstation's ledger key (ours): the service records who enrolled it and when.",
    description:
      "The proof is the key's own signature over the organization, the workstation and the key (domain/workstation-keys.ts), so nobody enrols a key they do not hold. Enrolling the key the workstation has already is a no-op. A workstation has one key: another is refused (409), unless an Admin asks for a rotation (rotate: true), which ends the old key; its entries received by then stay good.",
    params: orgParams,
    body: workstationEnrolmentSchema,
    mutates: true,
    response: {
      kind: 'json',
      data: workstationEnrolmentResultSchema,
      description: 'Whether the key was enrolled now, and its record.',
    },
    handler: async ({ db, caller, body }) => {
      if (!enrolmentProofHolds({ orgId: caller.orgId, ...body })) {
        throw badRequest(
          'WORKSTATION_PROOF_INVALID',
          `The enrolment's proof is not the signature of key …${body.publicKey.slice(-12)} over organization ${caller.orgId} and workstation ${body.workstation}: enrol from the workstation that holds the key.`,
          'proof',
        );
      }
      if (body.rotate && caller.role !== 'Admin')
        throw forbidden(
          'WORKSTATION_ROTATION_ADMIN_ONLY',
          "Only an Admin may replace a workstation's enrolled key: ask one to run `provisioner ledger enrol --rotate` on this workstation.",
        );
      let enrolledBy = caller.keyName;
      if (body.grant) {
        if (body.rotate)
          throw badRequest(
            'WORKSTATION_GRANT_INVALID',
            "A work package's enrolment grant enrols a new workstation; it never replaces a key.",
            'grant',
          );
        const grant = await findEnrolmentGrant(db, caller.orgId, body.grant.grantId, tokenHash(body.grant.token));
        if (!grant)
          throw forbidden(
            'WORKSTATION_GRANT_INVALID',
            `Enrolment grant ${body.grant.grantId} is not one this organization issued: the work package it came from was not exported from here.`,
          );
        const again = grant.usedAt !== null && grant.usedKey === body.publicKey;
        if (grant.usedAt !== null && !again)
          throw forbidden(
            'WORKSTATION_GRANT_INVALID',
            `Enrolment grant ${grant.grantId} (work package ${grant.packageId}) was used on ${grant.usedAt} for another key; a grant enrols one key, once.`,
          );
        if (!again && Date.parse(grant.expiresAt) <= Date.now())
          throw forbidden(
            'WORKSTATION_GRANT_INVALID',
            `Enrolment grant ${grant.grantId} expired with its work package on ${grant.expiresAt}.`,
          );
        enrolledBy = `${caller.keyName}, with the enrolment grant of work package ${grant.packageId} (issued by ${grant.issuedBy})`;
        if (!again) await useEnrolmentGrant(db, grant.grantId, { usedBy: caller.keyName, publicKey: body.publicKey });
      }
      const outcome = await enrolWorkstationKey(db, caller.orgId, {
        workstation: body.workstation,
        publicKey: body.publicKey,
        enrolledBy,
        rotate: body.rotate === true,
      });
      switch (outcome.kind) {
        case 'enrolled':
          return { enrolled: true, key: outcome.key };
        case 'already':
          return { enrolled: false, key: outcome.key };
        case 'key-taken':
          throw conflict(
            'WORKSTATION_KEY_TAKEN',
            outcome.key.status === 'active'
              ? `Key …${body.publicKey.slice(-12)} is enrolled for workstation ${outcome.key.workstation}; a key signs for one workstation only.`
              : `Key …${body.publicKey.slice(-12)} was ${outcome.key.status} on ${outcome.key.endedAt}; an ended key is never enrolled again: make a new key.`,
            'publicKey',
          );
        case 'workstation-has-key':
          throw conflict(
            'WORKSTATION_HAS_KEY',
            `Workstation ${body.workstation} has key …${outcome.key.publicKey.slice(-12)} enrolled (by ${outcome.key.enrolledBy}, ${outcome.key.enrolledAt}); another key for it is taken only as an Admin's rotation (\`provisioner ledger enrol --rotate\`).`,
            'publicKey',
          );
      }
    },
  }),
  orgOperation({
    id: 'workstations.grant',
    method: 'POST',
    path: '/organizations/:orgId/workstations/grants',
    tag: 'Ledger',
    summary:
      'Issues a one-time enrolment grant for a work package (ours): the laptop that imports the package enrols its key with it, offline.',
    description:
      'The token is shown once; the service keeps its SHA-256. The grant expires with the package (at most 365 days) and enrols one key, once, when the confirmations come back.',
    params: orgParams,
    body: z.object({ packageId: z.uuid(), expiresAt: z.iso.datetime({ offset: true }) }),
    mutates: true,
    response: { kind: 'json', data: enrolmentGrantSchema, status: 201, description: 'The grant, with its token.' },
    handler: async ({ db, caller, body }) => {
      const expiresAt = Date.parse(body.expiresAt);
      if (!(expiresAt > Date.now() && expiresAt <= Date.now() + MAX_WORK_PACKAGE_DAYS * 86_400_000 + 60_000)) {
        throw badRequest(
          'WORKSTATION_GRANT_INVALID',
          `A grant expires with its package: in the future, and at most ${MAX_WORK_PACKAGE_DAYS} days from now.`,
          'expiresAt',
        );
      }
      const grant = {
        grantId: randomUUID(),
        token: randomBytes(32).toString('base64url'),
        expiresAt: new Date(expiresAt).toISOString(),
      };
      await issueEnrolmentGrant(db, caller.orgId, {
        grantId: grant.grantId,
        tokenSha256: tokenHash(grant.token),
        packageId: body.packageId,
        expiresAt: grant.expiresAt,
        issuedBy: caller.keyName,
      });
      return grant;
    },
  }),
  orgOperation({
    id: 'workstations.revoke',
    method: 'POST',
    path: '/organizations/:orgId/workstations/:workstation/revoke',
    tag: 'Ledger',
    summary:
      "Revokes a workstation's enrolled key (ours): its later entries are refused and fail verify, with the reason.",
    params: z.object({ orgId: z.string(), workstation: workstationIdSchema }),
    body: z.object({ reason: z.string().trim().min(1, 'say why the key is revoked').max(500) }),
    mutates: true,
    response: { kind: 'json', data: enrolledWorkstationKeySchema, description: 'The key, revoked.' },
    handler: async ({ db, caller, params, body }) => {
      const key = await revokeWorkstationKey(db, caller.orgId, params.workstation, {
        by: caller.keyName,
        reason: body.reason,
      });
      if (!key)
        throw notFound(
          'WORKSTATION_KEY_NOT_FOUND',
          `Workstation ${params.workstation} has no enrolled key that is still good.`,
          'workstation',
        );
      return key;
    },
  }),
  orgOperation({
    id: 'workstations.keys',
    method: 'GET',
    path: '/organizations/:orgId/workstations/keys',
    tag: 'Ledger',
    summary:
      "Every workstation key the organization enrolled, signed by the organization's key (ours), for checking ledgers offline.",
    params: orgParams,
    mutates: false,
    response: {
      kind: 'json',
      data: signedWorkstationKeyListSchema,
      description: "The list's JSON text, the organization key's signature and that key's certificate.",
    },
    handler: async ({ db, ctx, caller }) => {
      const keys = await listWorkstationKeys(db, caller.orgId);
      return signWorkstationKeyList(
        { orgId: caller.orgId, issuedAt: new Date().toISOString(), keys },
        await organizationSigner(db, ctx.secrets, caller.orgId),
      );
    },
  }),
];
