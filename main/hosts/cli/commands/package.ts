import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CoreError } from '../../../../contract/index';
import { parseRootKeyFingerprint, rootKeyFingerprint } from '../../../../domain/files/config-file-signature';
import { bytesText } from '../../../../domain/job-text';
import { writeFileAtomic } from '../../../../platform/durable-file';
import { workPackageRefusalText } from '../../../../domain/work-package-refusal';
import { cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

/**
 * `provisioner package …`: work packages for plants without network (docs/work-packages.md).
 * export and export-confirmations write signed files; import and import-confirmations check them
 * before anything is kept or sent.
 */

export interface PackageExportOptions {
  configuration: string;
  out: string;
  expiresIn?: number;
}

export interface PackageImportOptions {
  signer?: string;
  /** The service root key's fingerprint, for a laptop that has never been signed in there. */
  rootFingerprint?: string;
  /** Refused: a package never signs a laptop in (kept as an option only to say so). */
  apiKey?: string;
}

async function readInput(ctx: CliContext, file: string, what: 'package' | 'confirmations'): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(resolve(ctx.io.cwd, file)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT'
        ? t('cli:package.noFile', { what, file })
        : t('cli:package.cannotRead', { file, message: (error as Error).message }),
    );
  }
}

async function writeOutput(ctx: CliContext, file: string, bytes: Uint8Array): Promise<string> {
  const path = resolve(ctx.io.cwd, file);
  try {
    await writeFileAtomic(path, bytes, 0o600);
  } catch (error) {
    throw new CliError(t('cli:package.cannotWrite', { file, message: (error as Error).message }));
  }
  return path;
}

/** A refused package or confirmations file is a refusal to be read by a person: one line in the run's language, as the CLI's other refusals. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CoreError && error.workPackageRefusal)
      throw new CliError(workPackageRefusalText(error.workPackageRefusal, cliTranslator()).replace(/[.。]$/, ''));
    throw error;
  }
}

const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** `package export --configuration NAME --out FILE`: one signed file with all a plant without network needs. */
export async function packageExport(ctx: CliContext, options: PackageExportOptions): Promise<number> {
  const account = await ctx.account();
  if (account.offline) throw new CliError(t('cli:package.exportOffline'), EXIT.usage);
  if (account.local) {
    throw new CliError(t('cli:package.exportLocal'), EXIT.usage);
  }
  const core = ctx.core();
  const exported = await refusing(() =>
    core.invoke('packages.exportByName', {
      configurationName: options.configuration,
      ...(options.expiresIn !== undefined ? { expiresInDays: options.expiresIn } : {}),
    }),
  );
  const bytes = fromBase64(exported.contentBase64);
  const path = await writeOutput(ctx, options.out, bytes);
  const { body } = exported;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      file: path,
      size: bytes.length,
      packageId: body.packageId,
      configuration: body.configuration,
      origin: body.origin,
      expiresAt: body.expiresAt,
      signerKeyId: exported.signerKeyId,
      rootFingerprint: rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem),
      devices: body.devices,
      firmware: body.firmware.map(({ deviceType, version, sha256 }) => ({ deviceType, version, sha256 })),
      patches: body.patches.length,
    });
    return EXIT.ok;
  }
  ctx.out.line(
    t('cli:package.exported', {
      name: body.configuration.name,
      path,
      size: bytesText(bytes.length, cliTranslator()),
      devices: body.devices.length,
      firmware: body.firmware.length,
      patches: body.patches.length,
    }),
  );
  ctx.out.table(
    [
      t('cli:package.header.device'),
      t('cli:package.header.type'),
      t('cli:package.header.configurationSyncId'),
      t('cli:package.header.firmware'),
    ],
    body.devices.map((d) => [d.serialNumber, d.deviceType, d.syncId, d.firmware.version]),
  );
  ctx.out.line(
    t('cli:package.exportedExpiry', {
      expiresAt: body.expiresAt,
      org: body.origin.orgId,
      key: exported.signerKeyId,
      url: body.origin.serviceUrl,
      fingerprint: rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem),
    }),
  );
  return EXIT.ok;
}

/**
 * `package import FILE`: checked (the organization's signature under a root key this laptop trusts,
 * every byte, expiry, organization), then its files kept where the jobs look for them without the
 * service. A laptop signed in works for its login; one that never was works offline for the
 * package's organization, with no key at all: it takes the root key only by the fingerprint given
 * (--root-fingerprint), and nothing it does sends anything anywhere until someone signs in.
 */
export async function packageImport(ctx: CliContext, file: string, options: PackageImportOptions): Promise<number> {
  if (options.apiKey !== undefined) {
    throw new CliError(t('cli:package.importApiKey'), EXIT.usage);
  }
  let rootFingerprint: string | undefined;
  if (options.rootFingerprint !== undefined) {
    rootFingerprint = parseRootKeyFingerprint(options.rootFingerprint);
    if (rootFingerprint === undefined) {
      throw new CliError(t('cli:package.badRootFingerprint', { value: options.rootFingerprint }), EXIT.usage);
    }
  }
  const bytes = await readInput(ctx, file, 'package');
  const core = ctx.core();
  const imported = await refusing(() =>
    core.invoke('packages.import', {
      contentBase64: toBase64(bytes),
      ...(options.signer !== undefined ? { signer: options.signer } : {}),
      ...(rootFingerprint !== undefined ? { rootFingerprint } : {}),
    }),
  );
  const { account } = imported;
  const { body } = imported;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      imported: true,
      packageId: body.packageId,
      configuration: body.configuration,
      origin: body.origin,
      expiresAt: body.expiresAt,
      signerKeyId: imported.signerKeyId,
      rootAdopted: imported.rootAdopted,
      signedIn: imported.signedIn,
      firmware: imported.firmware,
      patches: imported.patches,
      configurationFiles: imported.configFiles,
    });
    return EXIT.ok;
  }
  if (imported.rootAdopted)
    ctx.out.note(t('cli:package.rootAdopted', { url: account.serviceUrl, fingerprint: rootFingerprint ?? '' }));
  if (!imported.signedIn) ctx.out.note(t('cli:package.notSignedIn', { org: account.orgId }));
  ctx.out.line(
    t('cli:package.imported', {
      name: body.configuration.name,
      org: body.origin.orgId,
      key: imported.signerKeyId,
      expiresAt: body.expiresAt,
    }),
  );
  ctx.out.table(
    [
      t('cli:package.header.device'),
      t('cli:package.header.configurationSyncId'),
      t('cli:package.header.firmware'),
      t('cli:package.header.kept'),
    ],
    imported.configFiles.map((c) => {
      const device = body.devices.find((d) => d.serialNumber === c.serialNumber)!;
      return [
        c.serialNumber,
        c.syncId,
        `${device.deviceType} ${device.firmware.version}`,
        t('cli:package.kept', { kept: c.kept }),
      ];
    }),
  );
  if (imported.patches.carried > 0) {
    ctx.out.line(t('cli:package.patches', { carried: imported.patches.carried, kept: imported.patches.kept }));
  }
  ctx.out.line(t('cli:package.nowOffline', { serials: body.devices.map((d) => d.serialNumber).join(' ') }));
  return EXIT.ok;
}

/** `package export-confirmations --out FILE`: what waits in the outbox, signed, to carry to a workstation online. */
export async function packageExportConfirmations(ctx: CliContext, options: { out: string }): Promise<number> {
  const core = ctx.core();
  const exported = await refusing(() => core.invoke('packages.exportConfirmations', {}));
  const path = await writeOutput(ctx, options.out, fromBase64(exported.contentBase64));
  const { confirmations } = exported.body;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      file: path,
      exportId: exported.body.exportId,
      signerKeyId: exported.signerKeyId,
      confirmations: confirmations.map(({ id, kind, serialNumber, orgId, serviceUrl }) => ({
        id,
        kind,
        serialNumber,
        orgId,
        serviceUrl,
      })),
      ledgerEntries: exported.body.ledger.length,
      ledgerHead: exported.body.ledgerHead,
    });
    return EXIT.ok;
  }
  const devices = [...new Set(confirmations.map((c) => c.serialNumber))].sort();
  ctx.out.line(
    t('cli:package.confirmationsExported', {
      confirmations: confirmations.length,
      serials: devices.join(', '),
      entries: exported.body.ledger.length,
      path,
      key: exported.signerKeyId,
    }),
  );
  if (exported.body.ledgerHead)
    ctx.out.line(
      t('cli:package.ledgerHead', { seq: exported.body.ledgerHead.seq, hash: exported.body.ledgerHead.hash }),
    );
  ctx.out.line(t('cli:package.stayInOutbox'));
  return EXIT.ok;
}

/** `package import-confirmations FILE`: checked, then each confirmation delivered once. */
export async function packageImportConfirmations(
  ctx: CliContext,
  file: string,
  options: { signer?: string },
): Promise<number> {
  const bytes = await readInput(ctx, file, 'confirmations');
  const account = await ctx.account();
  if (account.offline) throw new CliError(t('cli:package.importConfirmationsOffline'), EXIT.usage);
  const core = ctx.core();
  const report = await refusing(() =>
    core.invoke('packages.importConfirmations', {
      contentBase64: toBase64(bytes),
      ...(options.signer !== undefined ? { signer: options.signer } : {}),
    }),
  );
  const count = (outcome: string) => report.outcomes.filter((o) => o.outcome === outcome).length;
  const failed = count('not-sent') + count('refused');
  if (ctx.out.json) {
    ctx.out.jsonLine({
      exportId: report.exportId,
      workstation: report.workstation,
      signerKeyId: report.signerKeyId,
      ledgerEntries: report.ledgerEntries,
      ledger: report.ledger ?? null,
      ledgerHead: report.ledgerHead,
      outcomes: report.outcomes,
    });
    return failed === 0 && !report.ledgerHead?.fault ? EXIT.ok : EXIT.failed;
  }
  for (const outcome of report.outcomes) {
    const what = { serial: outcome.serialNumber, kind: outcome.kind };
    if (outcome.outcome === 'refused' || outcome.outcome === 'not-sent')
      ctx.out.error(t('cli:package.outcome', { ...what, outcome: outcome.outcome, message: outcome.message }));
    else if (outcome.outcome === 'other-organization') ctx.out.note(t('cli:package.otherOrganization', what));
  }
  ctx.out.line(
    t('cli:package.delivered', {
      count: count('delivered'),
      workstation: report.workstation,
      key: report.signerKeyId,
      account: account.label,
    }),
  );
  if (report.ledger && 'error' in report.ledger)
    ctx.out.error(t('cli:package.ledgerNotSent', { message: report.ledger.error }));
  else if (report.ledger) {
    ctx.out.line(
      t('cli:package.ledgerTaken', {
        received: report.ledger.received,
        known: report.ledger.known,
        withheld: report.ledger.withheld,
      }),
    );
  }
  if (report.ledgerHead?.fault) ctx.out.error(t('cli:package.laptopLedgerFault', { fault: report.ledgerHead.fault }));
  else if (report.ledgerHead)
    ctx.out.line(t('cli:package.laptopLedgerHead', { seq: report.ledgerHead.seq, hash: report.ledgerHead.hash }));
  if (count('not-sent') > 0) ctx.out.line(t('cli:package.importAgain'));
  return failed === 0 && !report.ledgerHead?.fault ? EXIT.ok : EXIT.failed;
}
