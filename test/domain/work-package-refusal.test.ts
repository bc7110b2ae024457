import { describe, expect, it } from 'vitest';
import { createTranslator, LANGUAGES } from '../../domain/i18n/index.js';
import {
  WORK_PACKAGE_REFUSAL_KINDS,
  workPackageRefusalCode,
  workPackageRefusalText,
  type WorkPackageRefusal,
} from '../../domain/work-package-refusal';

/**
 * A work package's refusals as codes and values (issue 29): the English is the sentence the core
 * wrote before, every language has words for every refusal, and the values are data.
 */

const ours = { orgId: 'plant-7', serviceUrl: 'https://provisioning.example' };
const theirs = { orgId: 'plant-9', serviceUrl: 'https://other.example' };

/** One refusal of every kind, with values a reader can find again in the sentence. */
const EVERY_REFUSAL: Record<WorkPackageRefusal['kind'], WorkPackageRefusal> = {
  nothingToExport: { kind: 'nothingToExport' },
  confirmationsSignerNotRequired: { kind: 'confirmationsSignerNotRequired', signer: 'ws-key-1', required: 'ws-key-2' },
  confirmationsWrongOrganization: { kind: 'confirmationsWrongOrganization', theirs, ours },
  enrolmentRefused: {
    kind: 'enrolmentRefused',
    key: '…0a1b2c3d4e5f',
    workstation: 'bench-3',
    serviceMessage: 'grant used',
  },
  signerNotEnrolled: { kind: 'signerNotEnrolled', key: '…0a1b2c3d4e5f', workstation: 'bench-3' },
  noSuchConfiguration: { kind: 'noSuchConfiguration', name: 'Loader 7', orgId: 'plant-7' },
  ambiguousConfiguration: { kind: 'ambiguousConfiguration', name: 'Loader 7', count: 2 },
  emptyConfiguration: { kind: 'emptyConfiguration', name: 'Loader 7' },
  configurationIncomplete: { kind: 'configurationIncomplete', name: 'Loader 7', problems: 3, example: 'EPC000101' },
  patchNotAsListed: { kind: 'patchNotAsListed', deviceType: 'SRCP', fromVersion: '1.0.0' },
  configFileSyncIdDiffers: { kind: 'configFileSyncIdDiffers', serial: 'EPC000101' },
  configFileOtherOrganization: {
    kind: 'configFileOtherOrganization',
    serial: 'EPC000101',
    orgId: 'plant-9',
    expectedOrgId: 'plant-7',
  },
  firmwareUnreachable: { kind: 'firmwareUnreachable', serial: 'EPC000101', notice: 'timeout.' },
  organizationKeyNotCertified: {
    kind: 'organizationKeyNotCertified',
    keyId: 'org-key-1',
    orgId: 'plant-7',
    certifiedKeyId: 'org-key-2',
    certifiedOrgId: 'plant-9',
  },
  packageSignatureBroken: { kind: 'packageSignatureBroken', detail: 'bad signature' },
  packageSignerNotRequired: { kind: 'packageSignerNotRequired', signer: 'org-key-1', required: 'org-key-2' },
  packageWrongOrganization: { kind: 'packageWrongOrganization', theirs, ours },
  fingerprintNotTrustedRoot: {
    kind: 'fingerprintNotTrustedRoot',
    given: 'ab'.repeat(32),
    serviceUrl: ours.serviceUrl,
    trusted: 'cd'.repeat(32),
  },
  noTrustedRoot: { kind: 'noTrustedRoot', serviceUrl: ours.serviceUrl, orgId: 'plant-7' },
  carriedRootNotGiven: { kind: 'carriedRootNotGiven', carried: 'ab'.repeat(32), given: 'cd'.repeat(32) },
  otherRootKey: { kind: 'otherRootKey', keyId: 'root-2', serviceUrl: ours.serviceUrl },
};

/** Every string value of a refusal, nested ones included: the data the sentence must carry as it is. */
function valuesOf(reason: WorkPackageRefusal): string[] {
  return Object.entries(reason).flatMap(([key, value]) => {
    if (key === 'kind') return [];
    if (typeof value === 'object' && value !== null) return Object.values(value).map(String);
    return [String(value)];
  });
}

describe('a work package refusal in words', () => {
  it('says in English what the core said before', () => {
    expect(workPackageRefusalText(EVERY_REFUSAL.configurationIncomplete)).toBe(
      'Configuration "Loader 7" is not complete (3 problems, e.g. EPC000101), so its devices have no configuration files yet. Complete it in the designer, then export it.',
    );
    expect(
      workPackageRefusalText({ kind: 'configurationIncomplete', name: 'Loader 7', problems: 1, example: null }),
    ).toBe(
      'Configuration "Loader 7" is not complete (1 problem), so its devices have no configuration files yet. Complete it in the designer, then export it.',
    );
    expect(workPackageRefusalText(EVERY_REFUSAL.ambiguousConfiguration)).toBe(
      '2 configurations are named "Loader 7". Rename one of them so that the name says which one to export.',
    );
    expect(workPackageRefusalText(EVERY_REFUSAL.organizationKeyNotCertified)).toBe(
      "The service named key org-key-1 as organization plant-7's, but its certificate is of key org-key-2 of plant-9. Export again; if it repeats, contact support.",
    );
    expect(workPackageRefusalText(EVERY_REFUSAL.confirmationsWrongOrganization)).toBe(
      'The confirmations in this file are for organization plant-9 at https://other.example, but this workstation works for organization plant-7 at https://provisioning.example. Import it on a workstation logged in to that organization.',
    );
  });

  it('keeps the codes scripts and the errors catalogue know', () => {
    expect(workPackageRefusalCode(EVERY_REFUSAL.noTrustedRoot)).toBe('WP_NO_TRUSTED_ROOT');
    expect(workPackageRefusalCode(EVERY_REFUSAL.carriedRootNotGiven)).toBe('WP_ROOT_KEY_MISMATCH');
    expect(workPackageRefusalCode(EVERY_REFUSAL.enrolmentRefused)).toBe('WP_UNTRUSTED_SIGNER');
    expect(new Set(WORK_PACKAGE_REFUSAL_KINDS)).toEqual(new Set(Object.keys(EVERY_REFUSAL)));
  });

  for (const language of LANGUAGES) {
    it(`says every refusal in ${language}, its values as they are`, () => {
      const words = createTranslator(language);
      for (const reason of Object.values(EVERY_REFUSAL)) {
        const said = workPackageRefusalText(reason, words);
        expect(said, reason.kind).not.toMatch(/core:|\{|\}/);
        for (const value of valuesOf(reason)) expect(said, `${reason.kind} in ${language}`).toContain(value);
        if (language !== 'en') expect(said, reason.kind).not.toBe(workPackageRefusalText(reason));
      }
    });
  }

  it('says the count of problems and the example in German without English words', () => {
    const german = workPackageRefusalText(EVERY_REFUSAL.configurationIncomplete, createTranslator('de'));
    expect(german).toBe(
      'Die Konfiguration „Loader 7“ ist nicht vollständig (3 Probleme, z. B. EPC000101), daher haben ihre Geräte noch keine Konfigurationsdateien. Vervollständigen Sie sie im Designer und exportieren Sie sie dann.',
    );
  });
});
