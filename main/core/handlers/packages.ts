import type { PackageChannel, WorkPackageFileView } from '../../../contract/index';
import { CoreError } from '../../../contract/errors';
import { rootKeyFingerprint } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import { toCoreError } from '../errors';
import { exportWorkPackage, WorkPackageError } from '../../features/packages';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

export interface PackageHandlerDeps {
  session: AccountSession;
  cache: FirmwareCache;
  workstation: () => Promise<string>;
  now?: () => Date;
}

/** A file name people recognise: the configuration's name and the day, nothing a file system refuses. */
function fileNameFor(configurationName: string, createdAt: string): string {
  const name = configurationName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'configuration';
  return `${name}-${createdAt.slice(0, 10)}.provisioner-package`;
}

/** The UI's side of docs/work-packages.md: the same export as `provisioner package export`. */
export function packageHandlers(deps: PackageHandlerDeps): HandlerGroup<PackageChannel> {
  return {
    'packages.export': async (input): Promise<WorkPackageFileView> => {
      const account = deps.session.require('files.download');
      if (account.kind === 'local') {
        throw new CoreError(
          'INVALID_INPUT',
          'The local workspace is on this computer only, and a work package carries the files of a service to a workstation that cannot reach it. Sign in to the service first.',
        );
      }
      try {
        const exported = await exportWorkPackage({
          client: account.client,
          origin: { serviceUrl: account.serviceUrl, orgId: account.orgId },
          cache: deps.cache,
          configuration: { id: input.configurationId },
          workstation: await deps.workstation(),
          expiresInDays: input.expiresInDays,
          ...(deps.now ? { now: deps.now } : {}),
        });
        const { body } = exported;
        return {
          fileName: fileNameFor(body.configuration.name, body.createdAt),
          contentBase64: Buffer.from(exported.bytes).toString('base64'),
          sizeBytes: exported.bytes.length,
          packageId: body.packageId,
          configurationName: body.configuration.name,
          deviceCount: body.devices.length,
          firmwareCount: body.firmware.length,
          expiresAt: body.expiresAt,
          signerKeyId: exported.signerKeyId,
          rootFingerprint: rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem),
        };
      } catch (error) {
        // Why the package cannot be made (incomplete configuration, a file the devices would refuse) is for the technician, as it is.
        if (error instanceof WorkPackageError) throw new CoreError('VALIDATION', error.message, [], null, error.reason);
        if (error instanceof FileFormatError) throw new CoreError('VALIDATION', error.message);
        throw toCoreError(error);
      }
    },
  };
}
