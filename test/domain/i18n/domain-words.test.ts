import { changeBasisText, changeText, changeValueText, type ChangeSubject } from '../../../domain/configuration-diff';
import { describe, expect, it } from 'vitest';
import { confirmationSummaryText } from '../../../domain/confirmation-summary';
import { codingDetailText, codingText } from '../../../domain/files/content-coding';
import {
  CAN_MODE_LABELS,
  canModeLabel,
  choiceLabels,
  choiceList,
  DEVICE_ROLE_LABELS,
  deviceRoleLabel,
  INPUT_CONFIGURATION_LABELS,
} from '../../../domain/choice-labels';
import { CAN_MODES, DEVICE_ROLES, INPUT_CONFIGURATIONS } from '../../../domain/enums';
import { fieldLabel, LABELLED_FIELDS } from '../../../domain/field-labels';
import { CATALOGS, createTranslator, LANGUAGES } from '../../../domain/i18n/index.js';
import { JOB_STEP_KINDS, STEP_STATUSES, stepName, stepStatusLabel } from '../../../domain/job-steps';
import { FAILURE_CAUSES, FAILURE_PLACES, type FailureReason } from '../../../domain/job-failure';
import { bytesText, durationText, failureReasonText, phaseText, rateText, silenceText } from '../../../domain/job-text';
import { JOB_PHASES } from '../../../domain/jobs';
import { syncDetailText, type SyncFinding } from '../../../domain/sync-detail';
import { parameterGroupLabel, parameterLabel, parameterValueLabel } from '../../../domain/parameter-labels';
import {
  FIXED_PARAMETER_KEYS,
  PARAMETER_GROUPS,
  parameterDefinition,
  type ParameterGroup,
} from '../../../domain/running-parameters';

// The domain's words are looked up by keys built at run time (`field.<name>`, `choice.role.<value>`,
// `step.<kind>`…), which the catalog test's scan for literal keys cannot see: these tests ask for
// every one of them in every language and check that none comes back as its key.

const de = createTranslator('de');
const zh = createTranslator('zh');

/** Every finding of a device's sync detail, each kind with and without its optional values. */
const EVERY_SYNC_FINDING: SyncFinding[] = [
  { kind: 'serviceNotAsked' },
  { kind: 'notRegistered' },
  { kind: 'firmwareNeverObserved' },
  { kind: 'firmwareLatestUnknown', version: '1.0.0' },
  { kind: 'firmwareBehind', version: '1.0.0', expected: '1.1.0' },
  { kind: 'notInConfiguration' },
  { kind: 'settingsDrift', mismatches: 'radio channel is 4, the configuration says 3' },
  { kind: 'configurationNotRead', recordedSyncId: null },
  { kind: 'configurationNotRead', recordedSyncId: 's-1' },
  { kind: 'configurationDrift', held: null, expected: null, configuration: 'Loader 7' },
  { kind: 'configurationDrift', held: 's-0', expected: 's-1', configuration: 'Loader 7' },
];
/** The details said from them: in sync, in sync with a note, and every finding. */
const syncDetails = (words: Parameters<typeof syncDetailText>[1]) => [
  syncDetailText([], words),
  syncDetailText([{ kind: 'settingsEqual', compared: 1 }], words),
  syncDetailText([{ kind: 'settingsEqual', compared: 12 }], words),
  syncDetailText(EVERY_SYNC_FINDING, words),
];

/** Every way a job's failure reason is said: each cause at each place of each step, with and without its figures. */
const EVERY_FAILURE_REASON: FailureReason[] = FAILURE_CAUSES.flatMap((cause) =>
  FAILURE_PLACES.flatMap((place) =>
    (['firmware', 'configuration'] as const).flatMap((step) =>
      [null, 37].flatMap((percent) =>
        [undefined, 'locked'].map((deviceMessage, i) => ({
          cause,
          place,
          step,
          percent,
          tries: 3,
          waitedSeconds: i === 0 ? null : 30,
          deviceCode: 'E_LOCKED',
          deviceMessage,
          link: 'serial:/dev/ttyACM0',
        })),
      ),
    ),
  ),
);

function expectTranslated(text: string, language: string): void {
  expect(text, `${language}: a key came back instead of words`).not.toMatch(
    /^domain:|^(field|choice|parameter|step|phase|failure|sync)\.|domain:(failure|sync)/,
  );
  expect(text.trim()).not.toBe('');
}

describe('the domain words in every language', () => {
  for (const language of LANGUAGES) {
    const words = createTranslator(language);
    it(`${language}: every field, choice, parameter, step, status and phase has words`, () => {
      for (const field of LABELLED_FIELDS) expectTranslated(fieldLabel(field, words), language);
      const choices = choiceLabels(words);
      for (const table of [choices.canMode, choices.deviceRole, choices.inputConfiguration])
        for (const label of Object.values(table)) expectTranslated(label, language);
      for (const key of FIXED_PARAMETER_KEYS) expectTranslated(parameterLabel(key, words), language);
      for (const group of Object.keys(PARAMETER_GROUPS) as ParameterGroup[])
        expectTranslated(parameterGroupLabel(group, words), language);
      for (const kind of JOB_STEP_KINDS)
        for (const of of ['firmware', 'configuration', null] as const)
          expectTranslated(stepName({ step: kind, of }, words), language);
      for (const status of STEP_STATUSES) expectTranslated(stepStatusLabel(status, words), language);
      for (const phase of JOB_PHASES)
        for (const step of ['firmware', 'configuration'] as const)
          expectTranslated(phaseText(phase, step, { version: '2.4.1' }, words), language);
      for (const reason of EVERY_FAILURE_REASON) expectTranslated(failureReasonText(reason, words), language);
      for (const detail of syncDetails(words)) expectTranslated(detail, language);
      for (const coding of ['deflate', 'delta'] as const)
        for (const factor of [null, 1.6]) {
          expectTranslated(codingText({ coding, factor }, words), language);
          expectTranslated(codingDetailText({ coding, factor }, words), language);
        }
    });
  }

  it('every domain key is asked for by some word function (no dead keys)', () => {
    const used = new Set<string>();
    const recording = { locale: 'en-GB', t: (key: string) => (used.add(key.replace(/^domain:/, '')), key) };
    for (const field of [...LABELLED_FIELDS, '']) fieldLabel(field, recording);
    choiceLabels(recording);
    for (const key of [...FIXED_PARAMETER_KEYS, 'peer.EPC000102.role']) parameterLabel(key, recording);
    for (const group of Object.keys(PARAMETER_GROUPS) as ParameterGroup[]) parameterGroupLabel(group, recording);
    parameterValueLabel(true, '', 'safety.ossdEnabled', recording);
    parameterValueLabel(false, '', 'safety.ossdEnabled', recording);
    for (const kind of JOB_STEP_KINDS) stepName({ step: kind, of: null }, recording);
    for (const status of STEP_STATUSES) stepStatusLabel(status, recording);
    for (const phase of JOB_PHASES) phaseText(phase, 'firmware', {}, recording);
    silenceText({ phase: 'uploading', silentSeconds: 5 }, recording);
    for (const seconds of [5, 60, 72, 3600, 3900]) durationText(seconds, recording);
    for (const reason of EVERY_FAILURE_REASON) failureReasonText(reason, recording);
    syncDetails(recording);
    const change = (subject: ChangeSubject) => changeText({ before: '1', after: '2', subject }, recording);
    change({ kind: 'blank', removed: true });
    change({ kind: 'blank', removed: false });
    change({ kind: 'setting', key: 'ismTxChannel', peer: null });
    change({ kind: 'setting', key: 'ismTxChannel', peer: 'EPC000102' });
    change({ kind: 'peerAdded', peer: 'EPC000102', description: { kind: 'EPC', over: 'Ethernet', at: '10.0.0.2' } });
    change({ kind: 'peerRemoved', peer: 'EPC000102' });
    for (const value of ['not set', 'a password', 'no configuration', 'configured']) changeValueText(value, recording);
    for (const appliedSyncId of [null, 'a'])
      for (const appliedFrom of [null, 'service'])
        changeBasisText({ appliedSyncId, appliedFrom, inSync: false }, recording);
    for (const outcome of ['applied', 'failed'] as const)
      for (const error of [null, 'x'])
        confirmationSummaryText({ kind: 'firmware', outcome, subject: '1.0.0', error }, recording);
    for (const factor of [null, 1.6]) {
      codingText({ coding: 'deflate', factor }, recording);
      codingDetailText({ coding: 'deflate', factor }, recording);
    }
    expect(Object.keys(CATALOGS.en.domain).filter((key) => !used.has(key))).toEqual([]);
  });
});

describe('English stays as it was', () => {
  it('names fields, choices and parameters as before the catalogs', () => {
    expect(fieldLabel('approvedSourceAddresses.2')).toBe('Approved source addresses');
    expect(fieldLabel('devices.0.unknownThing')).toBe('unknownThing');
    expect(fieldLabel('0')).toBe('The value');
    expect(CAN_MODE_LABELS).toEqual({ canopen: 'CANopen', j1939: 'J1939', none: 'None' });
    expect(DEVICE_ROLE_LABELS.EStopSender).toBe('E-stop sender');
    expect(INPUT_CONFIGURATION_LABELS.REMOTE_SAFETY_REQUEST_WITH_AUTONOMY_SELECT).toBe(
      'Remote safety request + autonomy select',
    );
    expect(choiceList(['CANopen', 'J1939', 'None'])).toBe('CANopen, J1939 or None');
    expect(choiceList(['Sender'])).toBe('Sender');
    // The running-parameter table's English labels are the domain's own.
    for (const key of FIXED_PARAMETER_KEYS) expect(parameterLabel(key)).toBe(parameterDefinition(key).label);
    expect(parameterLabel('peer.EPC000102.role')).toBe('Role of peer EPC000102');
    expect(phaseText('uploading', 'firmware', { version: '2.4.1' })).toBe('Uploading firmware 2.4.1');
    expect(phaseText('checking', 'configuration')).toBe('Reading back the configuration');
    expect(silenceText({ phase: 'downloading', silentSeconds: 72 })).toBe(
      'No answer from the service for 1 min 12 s: check the network',
    );
  });
});

describe('German and Chinese', () => {
  it('use the glossary terms and keep data as it is', () => {
    expect(fieldLabel('timeoutConfiguration', de)).toBe('Sicherheits-Timeout');
    expect(deviceRoleLabel('EStopSender', de)).toBe('Not-Halt-Sender');
    expect(deviceRoleLabel('Receiver', zh)).toBe('接收器');
    expect(canModeLabel('canopen', zh)).toBe('CANopen');
    expect(stepName({ step: 'function-test', of: null }, de)).toBe('Funktionsprüfung');
    expect(stepName({ step: 'read-back', of: 'configuration' }, de)).toBe('Konfiguration zurücklesen');
    expect(stepName({ step: 'parameter-verification', of: 'configuration' }, zh)).toBe('参数验证');
    expect(parameterLabel('peer.EPC000102.role', de)).toBe('Rolle des Partnergeräts EPC000102');
    expect(parameterValueLabel('ESTOP_TYPE_SWITCH', '', 'safety.input1', de)).toBe('Not-Halt-Schalter');
    expect(parameterValueLabel(true, '', 'safety.ossdEnabled', zh)).toBe('是');
    expect(parameterValueLabel('SOMETHING_NEW', '', 'safety.input1', de)).toBe('SOMETHING_NEW');
    expect(parameterValueLabel(1000, 'ms', 'safety.timeout', de)).toBe('1000 ms');
    expect(phaseText('uploading', 'firmware', { version: '2.4.1' }, de)).toBe('Firmware 2.4.1 wird übertragen');
    expect(choiceList(['CANopen', 'J1939', 'Keiner'], de)).toBe('CANopen, J1939 oder Keiner');
    expect(choiceList(['A', 'B', 'C'], zh)).toBe('A、B或C');
    expect(durationText(72, zh)).toBe('1 分 12 秒');
    expect(durationText(3900, de)).toBe('1 h 5 min');
    expect(silenceText({ phase: 'uploading', silentSeconds: 5 }, zh)).toBe('设备已 5 秒无应答：请检查线缆');
    expect(bytesText(11_520, de)).toBe('11,5 kB');
    expect(rateText(11_520, zh)).toBe('11.5 kB/s');
    expect(bytesText(11_520)).toBe('11.5 kB');
  });

  it('every enum value has a label in each table', () => {
    const labels = choiceLabels(de);
    expect(Object.keys(labels.canMode)).toEqual([...CAN_MODES]);
    expect(Object.keys(labels.deviceRole)).toEqual([...DEVICE_ROLES]);
    expect(Object.keys(labels.inputConfiguration)).toEqual([...INPUT_CONFIGURATIONS]);
  });
});
