import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseRootKeyFingerprint, rootKeyFingerprint } from '../../../../domain/files/config-file-signature';
import { readWorkPackage } from '../../../../domain/files/work-package';
import { writeFileAtomic } from '../../../../platform/durable-file';
import { FirmwareCache } from '../../../app/cache/firmware-cache';
import { bytesText, ConfigFileStore, Outbox, provisioningPaths, SigningKeyStore } from '../../../app/jobs';
import { workstationId } from '../../../app/jobs/workstation';
import { openWorkstationLedger } from '../../../app/ledger';
import { carriedEnrolments } from '../../../app/packages/enrolment-grants';
import { deliverConfirmations, exportConfirmations, exportWorkPackage, importWorkPackage, packagePaths, WorkPackageError } from '../../../app/packages';
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
  if (account.offline) throw new CliError('this laptop is not signed in, and a work package is made by the service: sign in first (provisioner login --url URL --org ORG --api-key KEY)', EXIT.usage);
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
      rootFingerprint: rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem),
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
  ctx.out.line(
    `It expires on ${body.expiresAt}. Signed by organization ${body.origin.orgId}'s key ${exported.signerKeyId}. A laptop never signed in to ${body.origin.serviceUrl} imports it with --root-fingerprint ${rootKeyFingerprint(body.keys.configFileRootKey.publicKeyPem)} (tell the technician by another road than the USB stick).`,
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
    throw new CliError(
      'package import takes no API key: a work package never signs a laptop in. Import it without one (a laptop never signed in gives --root-fingerprint), provision offline, and sign in with `provisioner login` only where the service can be reached',
      EXIT.usage,
    );
  }
  let rootFingerprint: string | undefined;
  if (options.rootFingerprint !== undefined) {
    rootFingerprint = parseRootKeyFingerprint(options.rootFingerprint);
    if (rootFingerprint === undefined) {
      throw new CliError(`--root-fingerprint must be the 64 hexadecimal digits \`provisioner status\` shows on a signed-in laptop, not "${options.rootFingerprint}"`, EXIT.usage);
    }
  }
  const bytes = await readInput(ctx, file, 'work package');
  const login = await ctx.login();
  let account: { serviceUrl: string; orgId: string };
  const paths = provisioningPaths(ctx.dirs.data);
  if (login) {
    account = { serviceUrl: login.serviceUrl, orgId: login.orgId };
    const origin = readWorkPackage(bytes).body.origin;
    if (origin.serviceUrl === account.serviceUrl && origin.orgId === account.orgId) {
      // Signed in there: the root key comes from the service when it answers, else the one kept here.
      // One quick try: a signed-in laptop at a plant without network uses the kept key.
      await new SigningKeyStore({ dir: paths.account(account.serviceUrl, account.orgId).keys }).get((await ctx.account()).client, { retry: false, timeoutMs: 10_000 }).catch(() => undefined);
    }
  } else {
    // Not signed in: the package names which account's caches it fills; only its signature, checked below, makes it count.
    const { serviceUrl, orgId } = readWorkPackage(bytes).body.origin;
    account = { serviceUrl, orgId };
  }
  const accountDirs = paths.account(account.serviceUrl, account.orgId);
  const imported = await refusing(() =>
    importWorkPackage({
      bytes,
      account,
      cache: new FirmwareCache({ dir: paths.firmwareCache }),
      configFiles: new ConfigFileStore({ dir: accountDirs.configFiles }),
      signingKeys: new SigningKeyStore({ dir: accountDirs.keys }),
      recordDir: packagePaths(ctx.dirs.data).imported,
      notSignedIn: !login,
      ...(options.signer !== undefined ? { requiredSigner: options.signer } : {}),
      ...(rootFingerprint !== undefined ? { rootFingerprint } : {}),
    }),
  );
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
      signedIn: login !== undefined,
      firmware: imported.firmware,
      patches: imported.patches,
      configurationFiles: imported.configFiles,
    });
    return EXIT.ok;
  }
  if (imported.rootAdopted) ctx.out.note(`this laptop now trusts the root key of ${account.serviceUrl} with fingerprint ${rootFingerprint}, as given`);
  if (!login) ctx.out.note(`not signed in: this laptop works offline for organization ${account.orgId} and sends nothing anywhere; confirmations wait in the outbox (carry them back with package export-confirmations)`);
  ctx.out.line(`Imported the work package of configuration "${body.configuration.name}" (organization ${body.origin.orgId}), signed by the organization's key ${imported.signerKeyId}; it expires on ${body.expiresAt}.`);
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
      // The head sealed in the secret store, not the file's last line: a ledger cut before export shows.
      ledgerHead: async () => {
        const head = await ledger.sealedHead();
        return head && !('fault' in head) ? head : undefined;
      },
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
      ledgerHead: exported.body.ledgerHead,
    });
    return EXIT.ok;
  }
  const devices = [...new Set(confirmations.map((c) => c.serialNumber))].sort();
  ctx.out.line(
    `Wrote ${plural(confirmations.length, 'confirmation')} (${devices.join(', ')}) and ${plural(exported.body.ledger.length, 'ledger entry').replace('entrys', 'entries')} to ${path}, signed by workstation key ${exported.signerKeyId}.`,
  );
  if (exported.body.ledgerHead) ctx.out.line(`It carries this laptop's ledger head: entry ${exported.body.ledgerHead.seq}, hash ${exported.body.ledgerHead.hash}.`);
  ctx.out.line('They stay in the outbox too: should this workstation reach the service, it sends them, and the service records each one once.');
  return EXIT.ok;
}

/** `package import-confirmations FILE`: checked, then each confirmation delivered once. */
export async function packageImportConfirmations(ctx: CliContext, file: string, options: { signer?: string }): Promise<number> {
  const bytes = await readInput(ctx, file, 'confirmations file');
  const account = await ctx.account();
  if (account.offline) throw new CliError('this laptop is not signed in, and confirmations are delivered to the service: import the file on a workstation signed in to it (provisioner login)', EXIT.usage);
  const report = await refusing(() =>
    deliverConfirmations({ bytes, account, ...(options.signer !== undefined ? { requiredSigner: options.signer } : {}) }),
  );
  const count = (outcome: string) => report.outcomes.filter((o) => o.outcome === outcome).length;
  const failed = count('not-sent') + count('refused');
  if (ctx.out.json) {
    ctx.out.jsonLine({ exportId: report.exportId, workstation: report.workstation, signerKeyId: report.signerKeyId, ledgerEntries: report.ledgerEntries, ledger: report.ledger ?? null, ledgerHead: report.ledgerHead, outcomes: report.outcomes });
    return failed === 0 && !report.ledgerHead?.fault ? EXIT.ok : EXIT.failed;
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
  if (report.ledgerHead?.fault) ctx.out.error(`the laptop's ledger: ${report.ledgerHead.fault}`);
  else if (report.ledgerHead) ctx.out.line(`The laptop's ledger head when it exported: entry ${report.ledgerHead.seq}, hash ${report.ledgerHead.hash}.`);
  if (count('not-sent') > 0) ctx.out.line('Import the same file again once the service can be reached: nothing is recorded twice.');
  return failed === 0 && !report.ledgerHead?.fault ? EXIT.ok : EXIT.failed;
}
