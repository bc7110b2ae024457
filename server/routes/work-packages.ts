import { createHash } from 'node:crypto';
import { z } from 'zod';
import { keyIdOf } from '../../domain/files/config-file-signature';
import { FileFormatError } from '../../domain/files/file-error';
import {
  MAX_WORK_PACKAGE_DAYS,
  readWorkPackageManifest,
  signWorkPackageManifest,
  type WorkPackageBody,
} from '../../domain/files/work-package';
import { organizationSigner } from '../configurations/organization-keys';
import { BODY_LIMIT } from '../http/app';
import { badRequest, forbidden } from '../http/errors';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { orgParams } from '../http/schemas';
import { isActive, listReleaseKeys } from '../store/release-keys';
import { findEnrolmentGrant } from '../store/workstation-keys';

/** How far ahead of the service's clock a workstation's may be when it makes a package. */
const CLOCK_SLACK_MS = 10 * 60 * 1000;

const refused = (message: string) => badRequest('WORK_PACKAGE_REFUSED', message, 'manifest');

/**
 * Work packages (ours): the organization's key signs a package's manifest, so that a laptop that
 * never reaches the service can tell a package of its organization from any other. The service
 * signs only what it vouches for: its own root key, exactly the release keys it trusts, an expiry
 * within the cap, this organization, and a grant it issued for this very package. What the files
 * are, the manifest's hashes fix; the laptop checks each file against the signed keys.
 */
export const workPackageOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'workPackages.sign',
    method: 'POST',
    path: '/organizations/:orgId/work-packages/signatures',
    tag: 'Work packages',
    summary:
      "Signs a work package's manifest with the organization's key (ours), after checking what the package grants.",
    description:
      "The manifest is the JSON text the exporting workstation made (format provisioner-work-package/2), sent as it is. It must name the organization's key as its signer, carry the service's root key and exactly the release keys the service trusts now, be made now and expire within 365 days, be of this organization, and carry only an enrolment grant this organization issued for the package. The answer is the ES256 signature (IEEE P1363, base64) over the line `provisioner-signed-manifest/1` and the manifest's bytes.",
    params: orgParams,
    body: z.object({ manifest: z.string().min(2).max(BODY_LIMIT) }),
    // Nothing of the package is stored, but the organization's key is made on first use.
    mutates: true,
    response: {
      kind: 'json',
      data: z.object({ signature: z.string(), keyId: z.string() }),
      description: "The organization key's signature of the manifest, and that key's id.",
    },
    handler: async ({ db, ctx, caller, body }) => {
      const manifestBytes = new TextEncoder().encode(body.manifest);
      let manifest: ReturnType<typeof readWorkPackageManifest>;
      try {
        manifest = readWorkPackageManifest(manifestBytes);
      } catch (error) {
        if (error instanceof FileFormatError) throw refused(error.message);
        throw error;
      }
      const signer = await organizationSigner(db, ctx.secrets, caller.orgId);
      const certificate = Buffer.from(signer.certificate).toString('base64');
      if (manifest.signer.keyId !== signer.keyId || manifest.signer.certificate !== certificate) {
        throw refused(
          `The manifest names key ${manifest.signer.keyId} as its signer; organization ${caller.orgId} signs with key ${signer.keyId}: export the package again.`,
        );
      }
      checkGrants(manifest.body, {
        orgId: caller.orgId,
        rootKeyPem: ctx.secrets.signingKey.publicKeyPem,
        now: Date.now(),
      });
      const trusted = (await listReleaseKeys(db)).filter(isActive);
      const carried = manifest.body.keys.firmwareReleaseKeys;
      const same =
        carried.length === trusted.length &&
        trusted.every((key) =>
          carried.some((c) => c.keyId === key.keyId && keyIdOf(c.publicKeyPem) === keyIdOf(key.publicKeyPem)),
        );
      if (!same) {
        throw refused(
          `The package's firmware release keys (${carried.map((k) => k.keyId).join(', ') || 'none'}) are not the ones this service trusts (${trusted.map((k) => k.keyId).join(', ') || 'none'}): a package adds no trust. Export again.`,
        );
      }
      const grant = manifest.body.enrolmentGrant;
      if (grant) {
        const issued = await findEnrolmentGrant(
          db,
          caller.orgId,
          grant.grantId,
          createHash('sha256').update(grant.token).digest('hex'),
        );
        if (
          !issued ||
          issued.packageId !== manifest.body.packageId ||
          issued.expiresAt !== new Date(grant.expiresAt).toISOString()
        ) {
          throw forbidden(
            'WORK_PACKAGE_REFUSED',
            `Enrolment grant ${grant.grantId} is not one this organization issued for work package ${manifest.body.packageId}, with its expiry: export the package again.`,
          );
        }
      }
      return {
        signature: Buffer.from(signWorkPackageManifest(manifestBytes, signer)).toString('base64'),
        keyId: signer.keyId,
      };
    },
  }),
];

/** The parts of a package that grant something, against what the service vouches for. */
function checkGrants(body: WorkPackageBody, service: { orgId: string; rootKeyPem: string; now: number }): void {
  if (body.origin.orgId !== service.orgId)
    throw refused(`The package is of organization ${body.origin.orgId}; this key signs for ${service.orgId}.`);
  if (keyIdOf(body.keys.configFileRootKey.publicKeyPem) !== keyIdOf(service.rootKeyPem)) {
    throw refused(
      "The package carries another root key than this service's: export it again from a workstation signed in to this service.",
    );
  }
  const createdAt = Date.parse(body.createdAt);
  const expiresAt = Date.parse(body.expiresAt);
  const cap = MAX_WORK_PACKAGE_DAYS * 86_400_000;
  if (createdAt > service.now + CLOCK_SLACK_MS) {
    throw refused(
      `The package says it was made at ${body.createdAt}, after this service's time (${new Date(service.now).toISOString()}). Check the workstation's clock.`,
    );
  }
  // The cap counts from now too: a package made long ago is not stretched by signing it late.
  if (!(
    expiresAt > service.now &&
    expiresAt > createdAt &&
    expiresAt - createdAt <= cap &&
    expiresAt <= service.now + cap + CLOCK_SLACK_MS
  )) {
    throw refused(
      `A package expires in the future and within ${MAX_WORK_PACKAGE_DAYS} days of being made and signed; this one says ${body.createdAt} to ${body.expiresAt}.`,
    );
  }
}
