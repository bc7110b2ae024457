import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readWorkPackage } from '../../../../domain/files/work-package';
import { FileSecretStore } from '../../../../platform/secret-store';
import { writeFileAtomic } from '../../../../platform/durable-file';
import { FirmwareCache } from '../../../app/cache/firmware-cache';
import { bytesText, ConfigFileStore, Outbox, provisioningPaths, SigningKeyStore } from '../../../app/jobs';
import { workstationId } from '../../../app/jobs/workstation';
import { openWorkstationLedger } from '../../../app/ledger';
import { isPlainHttpOverNetwork } from '../../../app/session';
import { carriedEnrolments } from '../../../app/packages/enrolment-grants';
import {
  checkWorkPackage,
  deliverConfirmations,
  exportConfirmations,
  exportWorkPackage,
  importWorkPackage,
  loadOrCreatePackageSigner,
  packagePaths,
  WorkPackageError,
} from '../../../app/packages';
import type { CliContext } from '../context';
import { writeCredentials } from '../credentials';
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
  apiKey?: string;
}

async function readInput(ctx: CliContext, file: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(resolve(ctx.io.cwd, file)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `there is no ${what} at ${file}: check the path` : `cannot read ${file}: ${(error as Error).message}`);
  }
}

async function writeOutput(ctx: CliContext, file: string, bytes: Uint8Array): Promise<string> {
  const path = resolve(ctx.io.cwd, file);
  try {
    await writeFileAtomic(path, bytes, 0o600);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}; choose a folder you can write to`);
  }
  return path;
}

function signer(ctx: CliContext) {
  return loadOrCreatePackageSigner(new FileSecretStore(packagePaths(ctx.dirs.data).secrets, ctx.noteQuarantined));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** WorkPackageError is a refusal to be read by a person: one line, as the CLI's other refusals. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WorkPackageError) throw new CliError(error.message.replace(/\.$/, ''));
    throw error;
  }
}

/** `package export --configuration NAME --out FILE`: one signed file with all a plant without network needs. */
export async function packageExport(ctx: CliContext, options: PackageExportOptions): Promise<number> {
  const account = await ctx.account();
  if (account.local) {
    throw new CliError(
      'a work package carries the files of a service to a workstation that cannot reach it, and the local workspace is on this computer only; log in to the service first (provisioner login --url URL --org ORG --api-key KEY)',
      EXIT.usage,
    );
  }
  const paths = provisioningPaths(ctx.dirs.data);
  const exported = await refusing(async () =>
    exportWorkPackage({
      client: account.client,
      origin: { serviceUrl: account.serviceUrl, orgId: account.orgId },
      cache: new FirmwareCache({ dir: paths.firmwareCache }),
      configuration: { name: options.configuration },
      signer: await signer(ctx),
      workstation: await workstationId(ctx.dirs.data),
      ...(options.expiresIn !== undefined ? { expiresInDays: options.expiresIn } : {}),
    }),
  );
  const path = await writeOutput(ctx, options.out, exported.bytes);
  const { body } = exported;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      file: path,
      size: exported.bytes.length,
      packageId: body.packageId,
      configuration: body.configuration,
      origin: body.origin,
      expiresAt: body.expiresAt,
      signerKeyId: exported.signerKeyId,
      devices: body.devices,
      firmware: body.firmware.map(({ deviceType, version, sha256 }) => ({ deviceType, version, sha256 })),
      patches: body.patches.length,
    });
    return EXIT.ok;
  }
  ctx.out.line(
    `Wrote the work package of configuration "${body.configuration.name}" to ${path} (${bytesText(exported.bytes.length)}): ${plural(body.devices.length, 'device')}, ${plural(body.firmware.length, 'firmware bundle')}${body.patches.length > 0 ? `, ${plural(body.patches.length, 'patch')}` : ''}.`,
  );
  ctx.out.table(
    ['DEVICE', 'TYPE', 'CONFIGURATION SYNC ID', 'FIRMWARE'],
    body.devices.map((d) => [d.serialNumber, d.deviceType, d.syncId, d.firmware.version]),
  );
  ctx.out.line(`It expires on ${body.expiresAt}. Signed by this workstation's key ${exported.signerKeyId}: tell whoever imports it, so they can check it (--signer).`);
  return EXIT.ok;
}

/**
 * `package import FILE`: checked (signature, every byte, expiry, organization, signer), then its
 * files kept where the jobs look for them without the service. A workstation that is not logged in
 * takes the technician's API key for the package's organization, kept unchecked until the service
 * can be reached: its confirmations are filed under that organization and wait in the outbox.
 */
export async function packageImport(ctx: CliContext, file: string, options: PackageImportOptions): Promise<number> {
  const bytes = await readInput(ctx, file, 'work package');
  const login = await ctx.login();
  let account = login ? { serviceUrl: login.serviceUrl, orgId: login.orgId } : undefined;
  let keyToKeep: string | undefined;
  if (!account) {
    const apiKey = options.apiKey ?? ctx.io.env.PROVISIONER_API_KEY;
    // The file is checked before anything is kept, even the key.
    const opened = readWorkPackage(bytes);
    // The package names the service the key would be kept for: never one `login` itself refuses.
    if (isPlainHttpOverNetwork(opened.body.origin.serviceUrl)) {
      throw new CliError(
        `not importing: the package names the service ${opened.body.origin.serviceUrl}, and over http:// to another computer the API key would cross the network unencrypted; log in at the service's https:// address first, then import (nothing was kept)`,
        EXIT.usage,
      );
    }
    checkWorkPackage(bytes, { account: opened.body.origin, ...(options.signer !== undefined ? { requiredSigner: options.signer } : {}) });
    if (!apiKey) {
      throw new CliError(
        `this workstation is not logged in; the package is for organization ${opened.body.origin.orgId} at ${opened.body.origin.serviceUrl}: give your API key for it (--api-key KEY or $PROVISIONER_API_KEY), kept unchecked until the service can be reached, or log in while it can`,
        EXIT.usage,
      );
    }
    account = { serviceUrl: opened.body.origin.serviceUrl, orgId: opened.body.origin.orgId };
    keyToKeep = apiKey;
  }
  const paths = provisioningPaths(ctx.dirs.data);
  const accountDirs = paths.account(account.serviceUrl, account.orgId);
  const imported = await refusing(() =>
    importWorkPackage({
      bytes,
      account,
      cache: new FirmwareCache({ dir: paths.firmwareCache }),
      configFiles: new ConfigFileStore({ dir: accountDirs.configFiles }),
      signingKeys: new SigningKeyStore({ dir: accountDirs.keys }),
      recordDir: packagePaths(ctx.dirs.data).imported,
      ...(options.signer !== undefined ? { requiredSigner: options.signer } : {}),
    }),
  );
  // Kept only once the package is in: a refused package leaves the workstation as it was.
  const loggedInNow = keyToKeep !== undefined;
  if (keyToKeep !== undefined) await writeCredentials(ctx.dirs.config, { ...account, apiKey: keyToKeep, keyName: null, role: null });
  const { body } = imported;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      imported: true,
      packageId: body.packageId,
      configuration: body.configuration,
      origin: body.origin,
      expiresAt: body.expiresAt,
      signerKeyId: imported.signerKeyId,
      loggedIn: loggedInNow,
      firmware: imported.firmware,
      patches: imported.patches,
      configurationFiles: imported.configFiles,
    });
    return EXIT.ok;
  }
  if (loggedInNow) ctx.out.note(`logged in to organization ${account.orgId} at ${account.serviceUrl} with the key given, unchecked: the service cannot be asked from here; confirmations wait in the outbox`);
  ctx.out.line(`Imported the work package of configuration "${body.configuration.name}" (organization ${body.origin.orgId}), signed by workstation key ${imported.signerKeyId}; it expires on ${body.expiresAt}.`);
  ctx.out.table(
    ['DEVICE', 'CONFIGURATION SYNC ID', 'FIRMWARE', 'KEPT'],
    imported.configFiles.map((c) => {
      const device = body.devices.find((d) => d.serialNumber === c.serialNumber)!;
      return [c.serialNumber, c.syncId, `${device.deviceType} ${device.firmware.version}`, c.kept === 'imported' ? 'from the package' : 'a newer file kept before'];
    }),
  );
  if (imported.patches.carried > 0) {
    ctx.out.line(`${plural(imported.patches.carried, 'firmware patch').replace('patchs', 'patches')} carried, ${imported.patches.kept} kept for faster installs.`);
  }
  ctx.out.line(`These devices can now be provisioned without the service: provisioner device update ${body.devices.map((d) => d.serialNumber).join(' ')}`);
  return EXIT.ok;
}

/** `package export-confirmations --out FILE`: what waits in the outbox, signed, to carry to a workstation online. */
export async function packageExportConfirmations(ctx: CliContext, options: { out: string }): Promise<number> {
  const outbox = new Outbox({ dir: provisioningPaths(ctx.dirs.data).outbox, sender: { send: () => Promise.reject(new Error('not sending')) } });
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  const workstation = await workstationId(ctx.dirs.data);
  const exported = await refusing(async () =>
    exportConfirmations({
      outbox,
      // Signed by this workstation's ledger key: the key the service enrols (with the grant carried) or has enrolled.
      signer: await ledger.containerSigner(),
      workstation,
      enrolments: () => carriedEnrolments({ recordDir: packagePaths(ctx.dirs.data).imported, ledger, workstation }),
      // The whole ledger: the service takes each organization's entries (and checks them) when the file is imported.
      ledgerLines: () => ledger.entries(),
    }),
  );
  const path = await writeOutput(ctx, options.out, exported.bytes);
  const { confirmations } = exported.body;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      file: path,
      exportId: exported.body.exportId,
      signerKeyId: exported.signerKeyId,
      confirmations: confirmations.map(({ id, kind, serialNumber, orgId, serviceUrl }) => ({ id, kind, serialNumber, orgId, serviceUrl })),
      ledgerEntries: exported.body.ledger.length,
    });
    return EXIT.ok;
  }
  const devices = [...new Set(confirmations.map((c) => c.serialNumber))].sort();
  ctx.out.line(
    `Wrote ${plural(confirmations.length, 'confirmation')} (${devices.join(', ')}) and ${plural(exported.body.ledger.length, 'ledger entry').replace('entrys', 'entries')} to ${path}, signed by workstation key ${exported.signerKeyId}.`,
  );
  ctx.out.line('They stay in the outbox too: should this workstation reach the service, it sends them, and the service records each one once.');
  return EXIT.ok;
}

/** `package import-confirmations FILE`: checked, then each confirmation delivered once. */
export async function packageImportConfirmations(ctx: CliContext, file: string, options: { signer?: string }): Promise<number> {
  const bytes = await readInput(ctx, file, 'confirmations file');
  const account = await ctx.account();
  const report = await refusing(() =>
    deliverConfirmations({ bytes, account, ...(options.signer !== undefined ? { requiredSigner: options.signer } : {}) }),
  );
  const count = (outcome: string) => report.outcomes.filter((o) => o.outcome === outcome).length;
  const failed = count('not-sent') + count('refused');
  if (ctx.out.json) {
    ctx.out.jsonLine({ exportId: report.exportId, workstation: report.workstation, signerKeyId: report.signerKeyId, ledgerEntries: report.ledgerEntries, ledger: report.ledger ?? null, outcomes: report.outcomes });
    return failed === 0 ? EXIT.ok : EXIT.failed;
  }
  for (const outcome of report.outcomes) {
    const what = `${outcome.serialNumber} ${outcome.kind} confirmation`;
    if (outcome.outcome === 'refused') ctx.out.error(`${what}: refused by the service: ${outcome.message}`);
    else if (outcome.outcome === 'not-sent') ctx.out.error(`${what}: not sent: ${outcome.message}`);
    else if (outcome.outcome === 'other-organization') ctx.out.note(`${what} is for another organization; left for a workstation of that one`);
  }
  ctx.out.line(
    `Delivered ${plural(count('delivered'), 'confirmation')} from workstation ${report.workstation} (signed by key ${report.signerKeyId}) to ${account.label}; the service records each one once, however often it is sent.`,
  );
  if (report.ledger && 'error' in report.ledger) ctx.out.error(`the ledger entries could not be sent: ${report.ledger.error}`);
  else if (report.ledger) {
    ctx.out.line(
      `Ledger: the organization's chain took ${report.ledger.received} new entr${report.ledger.received === 1 ? 'y' : 'ies'} (it had ${report.ledger.known})${report.ledger.withheld > 0 ? `; ${report.ledger.withheld} changed entr${report.ledger.withheld === 1 ? 'y was' : 'ies were'} not sent` : ''}.`,
    );
  }
  if (count('not-sent') > 0) ctx.out.line('Import the same file again once the service can be reached: nothing is recorded twice.');
  return failed === 0 ? EXIT.ok : EXIT.failed;
}
