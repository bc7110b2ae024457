import type { ConfigurationRecord } from '../../../domain/configuration-record';
import { settingValueText } from '../../../domain/configuration-diff';
import { fieldLabel } from '../../../domain/field-labels';
import { describeBrokenLink, type LedgerEntry, type LedgerLine } from '../../../domain/ledger';
import { checkChainFromHead, ledgerFromLines, type LedgerFromHead } from '../../engine/ledger';
import { commissioningOf } from '../../../domain/ledger-commissioning';
import { reportParametersOf } from './report-parameters';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import type { DeviceType } from '../../../domain/device-types';
import {
  REPORT_FORMAT,
  type CommissioningReport,
  type ReportDevice,
  type ReportLedgerEntry,
  type ReportPerson,
  type ReportSafetyParameter,
} from './report-model';
import { localTimeZone } from './report-words';

/** The configuration's own parameters a safety reviewer reads, in this order. */
const SAFETY_FIELDS = [
  'timeoutConfiguration',
  'receiverOutputControl',
  'ismTxPower',
  'ismTxChannel',
  'ismNetworkId',
  'canMode',
  'canKBitrate',
  'approvedSourceAddresses',
  'displayTextPgn',
  'settingsPgn',
  'startingIpAddress',
] as const satisfies readonly (keyof ConfigurationRecord)[];

export function safetyParametersOf(configuration: ConfigurationRecord): ReportSafetyParameter[] {
  return SAFETY_FIELDS.map((field) => ({
    field,
    label: fieldLabel(field),
    value: settingValueText(field, configuration[field]),
  }));
}

/** What the report needs to know of a firmware version: its image and who signed it ("name (key id)"). */
export interface FirmwareFacts {
  imageSha256: string;
  signedBy: string | null;
}

export interface ReportSources {
  configuration: ConfigurationRecord;
  /** The service's records of the configuration's devices. */
  devices: readonly DeviceRecord[];
  /**
   * The ledger, read from its head back only as far as the devices' last firmware install and
   * configuration apply (Ledger.fromHead); or lines already read, oldest first.
   */
  ledger: LedgerFromHead | readonly LedgerLine[];
  /**
   * This workstation's ledger key (as entries carry it): an entry another key signed says nothing
   * about what was done here, however well it links, and the report takes none of it.
   */
  signerKey?: string;
  /** The image and signer of a version, when this workstation holds the bundle: asked only when the ledger does not say. */
  firmware: (deviceType: DeviceType, version: string) => Promise<FirmwareFacts | undefined>;
  workstation: string;
  service: string;
  orgId: string;
  now: Date;
  /** The zone the PDF states times in; this workstation's when not given. */
  timeZone?: string;
}

function lastOf(
  entries: readonly LedgerEntry[],
  serialNumber: string,
  action: LedgerEntry['action'],
  success?: boolean,
): LedgerEntry | undefined {
  return entries.findLast(
    (e) =>
      e.serialNumber === serialNumber &&
      e.action === action &&
      (success === undefined || (e.outcome === 'success') === success),
  );
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * The image and signer an install's ledger entry names, when it is of `version` (the device may run
 * another since, installed elsewhere). Entries made before the ledger kept them name neither.
 */
function firmwareFactsOf(entry: LedgerEntry | undefined, version: string | null): FirmwareFacts | undefined {
  if (!entry || version === null || text(entry.facts['firmwareVersion']) !== version) return undefined;
  const imageSha256 = text(entry.facts['imageSha256']);
  const keyId = text(entry.facts['signingKeyId']);
  if (imageSha256 === null || keyId === null) return undefined;
  return { imageSha256, signedBy: `${text(entry.facts['signingKeyName']) ?? 'unknown key'} (${keyId})` };
}

/**
 * Told of each ledger entry from the head back: true once every device has its last successful
 * firmware install and configuration apply. Everything else the report takes of a device (its
 * parameter verification, its function test) comes after that apply, so it has been read by then.
 * A device with neither in the ledger has the whole ledger read for it, as before.
 */
function everyDeviceFound(serials: readonly string[], signedHere: (entry: LedgerEntry) => boolean) {
  const missing = new Map(serials.map((serial) => [serial, new Set(['firmware-install', 'configuration-apply'])]));
  return (entry: LedgerEntry): boolean => {
    const steps = missing.get(entry.serialNumber);
    if (steps && entry.outcome === 'success' && signedHere(entry)) {
      steps.delete(entry.action);
      if (steps.size === 0) missing.delete(entry.serialNumber);
    }
    return missing.size === 0;
  };
}

/** The entries a device's report lines come from, in ledger order, each with its number. */
function ledgerEntriesOf(steps: [ReportLedgerEntry['step'], LedgerEntry | undefined][]): ReportLedgerEntry[] {
  return steps
    .flatMap(([step, entry]) => (entry ? [{ step, seq: entry.seq, hash: entry.hash, at: entry.at }] : []))
    .sort((a, b) => a.seq - b.seq);
}

/** Who did the work: each person who confirmed parameters, then each key signed in, with the devices. */
function peopleOf(devices: readonly ReportDevice[]): ReportPerson[] {
  const people: ReportPerson[] = [];
  const add = (name: string | null, role: ReportPerson['role'], serial: string) => {
    if (name === null) return;
    const known = people.find((p) => p.name === name && p.role === role);
    if (!known) people.push({ name, role, serialNumbers: [serial] });
    else if (!known.serialNumbers.includes(serial)) known.serialNumbers.push(serial);
  };
  for (const d of devices) add(d.parameters?.confirmedBy ?? null, 'confirmed the parameters', d.serialNumber);
  for (const d of devices)
    for (const actor of [d.firmware.installedBy, d.configuration.appliedBy, d.functionTest.by])
      add(actor, 'signed in', d.serialNumber);
  return people;
}

export async function buildCommissioningReport(sources: ReportSources): Promise<CommissioningReport> {
  const own = sources.signerKey;
  const signedHere = (entry: LedgerEntry) => own === undefined || entry.signerKey === own;
  const source = 'lines' in sources.ledger ? sources.ledger : ledgerFromLines(sources.ledger);
  const chain = await checkChainFromHead(source, {
    ...(own !== undefined ? { signerKey: own } : {}),
    enough: everyDeviceFound(
      sources.devices.map((d) => d.serialNumber),
      signedHere,
    ),
  });
  const entries = chain.entries;
  const devices: ReportDevice[] = [];
  for (const record of sources.devices) {
    const serial = record.serialNumber;
    const firmwareEntry = lastOf(entries, serial, 'firmware-install', true);
    const version = record.firmwareVersion ?? text(firmwareEntry?.facts['firmwareVersion']);
    // The ledger first: it says what was installed even when the bundle has left the cache.
    const facts =
      firmwareFactsOf(firmwareEntry, version) ??
      (version ? await sources.firmware(record.deviceType, version) : undefined);
    const commissioning = commissioningOf(entries, serial);
    const apply = commissioning.apply;
    const test = commissioning.test;
    const serviceApply = record.lastConfigurationApply;
    const parameters = reportParametersOf(entries, serial);
    devices.push({
      serialNumber: serial,
      name: record.name,
      deviceType: record.deviceType,
      model: record.model,
      firmware: {
        version,
        imageSha256: facts?.imageSha256 ?? null,
        signedBy: facts?.signedBy ?? null,
        installedAt: firmwareEntry?.at ?? record.lastFirmwareApply?.appliedAt ?? null,
        installedBy: firmwareEntry?.actor ?? null,
      },
      configuration: {
        syncId: record.deployedSyncId ?? text(apply?.facts['syncId']),
        deployStatus: record.deployStatus,
        appliedAt: apply?.at ?? serviceApply?.appliedAt ?? null,
        appliedBy: apply?.actor ?? null,
        workstation: apply?.workstation ?? serviceApply?.workstation ?? null,
      },
      functionTest: {
        result: test ? (test.outcome === 'success' ? 'pass' : 'fail') : null,
        at: test?.at ?? null,
        note: text(test?.facts['note']),
        reactions: text(test?.facts['receivers']),
        maxReactionMs: typeof test?.facts['maxReactionMs'] === 'number' ? test.facts['maxReactionMs'] : null,
        workstation: test?.workstation ?? null,
        by: test?.actor ?? null,
      },
      commissioning: commissioning.state,
      missingSteps: commissioning.missing,
      parameters,
      ledgerHashes: {
        firmwareInstall: firmwareEntry?.hash ?? null,
        configurationApply: apply?.hash ?? null,
        functionTest: test?.hash ?? null,
      },
      ledgerEntries: ledgerEntriesOf([
        ['firmware install', firmwareEntry],
        ['configuration apply', apply],
        ['parameter verification', parameters ? entries.find((e) => e.hash === parameters.ledgerHash) : undefined],
        ['function test', test],
      ]),
    });
  }
  return {
    format: REPORT_FORMAT,
    generatedAt: sources.now.toISOString(),
    timeZone: sources.timeZone ?? localTimeZone(),
    workstation: sources.workstation,
    service: sources.service,
    orgId: sources.orgId,
    configuration: { id: sources.configuration.id, name: sources.configuration.name },
    safetyParameters: safetyParametersOf(sources.configuration),
    devices,
    people: peopleOf(devices),
    ledger: {
      entries: entries.length,
      fromSeq: chain.fromSeq,
      intact: chain.ok,
      headSeq: chain.headSeq,
      head: chain.head,
      broken: chain.broken ? describeBrokenLink(chain.broken) : null,
    },
  };
}
