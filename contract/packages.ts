import { z } from 'zod';
import { command } from './channel-spec';

/** A work package made for the renderer to save (docs/work-packages.md). */
export interface WorkPackageFileView {
  /** What to name the file when saved, e.g. `Loader-7-remote-ISM-2026-03-02.provisioner-package`. */
  fileName: string;
  /** The signed file, base64: the renderer saves it as it is. */
  contentBase64: string;
  sizeBytes: number;
  packageId: string;
  configurationName: string;
  deviceCount: number;
  firmwareCount: number;
  expiresAt: string;
  /** The id of the organization's key that signed it (on the service). */
  signerKeyId: string;
  /**
   * The fingerprint of the service's root key: what a laptop never signed in there is given with
   * the package, by another road than the package (package import --root-fingerprint).
   */
  rootFingerprint: string;
}

/** Work packages for plants without network. */
export const PACKAGE_CHANNELS = {
  'packages.export': command(
    z
      .object({
        configurationId: z.string().min(1),
        expiresInDays: z.number().int().min(1).max(365).default(30),
      })
      .strict(),
  ).returns<WorkPackageFileView>(),
} as const;
export type PackageChannel = keyof typeof PACKAGE_CHANNELS;
