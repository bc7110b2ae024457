import { englishWords, type Words } from '../format/words';

/**
 * A job step's summary in the reader's language. The core writes each step's summary in English
 * (main/engine/jobs/step-record.ts: the CLI's line and --json carry it as it is); the screens read
 * each known sentence back here, with its figures (a version, a syncId, a checksum), and say it
 * from the workbench catalog. A sentence not known here is shown as the core wrote it: a new one
 * reads English until it is added, never wrong.
 */
const SENTENCES: ReadonlyArray<readonly [RegExp, string, readonly string[]]> = [
  [/^firmware (\S+) installed \(was (\S+)\)$/, 'firmwareInstalled', ['version', 'was']],
  [/^the upload resumed at (\d+)%$/, 'uploadResumed', ['percent']],
  [/^already runs firmware (\S+); nothing sent$/, 'firmwareAlready', ['version']],
  [/^firmware (\S+) uploaded and applied$/, 'firmwareUploaded', ['version']],
  [/^configuration (\S+) applied$/, 'configurationApplied', ['syncId']],
  [/^configuration (\S+) applied \(blank: device reset to no configuration\)$/, 'configurationBlank', ['syncId']],
  [
    /^already holds configuration (\S+) \(sequence (\d+)\); nothing sent$/,
    'configurationAlready',
    ['syncId', 'sequence'],
  ],
  [/^the device reports firmware (\S+)$/, 'readsFirmware', ['version']],
  [/^the device reports configuration (\S+)$/, 'readsConfiguration', ['syncId']],
  [/^parameters match the configuration, checksum (\S+): a person confirms them$/, 'parametersMatch', ['checksum']],
  [/^confirmed to the service$/, 'confirmed', []],
  [/^failure reported to the service$/, 'failureReported', []],
  [/^confirmation waiting in the outbox$/, 'confirmationWaiting', []],
  [/^failure report waiting in the outbox$/, 'failureWaiting', []],
  [/^nothing new to confirm$/, 'nothingToConfirm', []],
  [/^firmware not installed$/, 'firmwareNotInstalled', []],
  [/^configuration not applied$/, 'configurationNotApplied', []],
  [/^the device does not run the parameters of the configuration$/, 'parametersDiffer', []],
  [/^function test failed$/, 'functionTestFailed', []],
];

/**
 * A job's result message: the core joins its parts with "; " ("firmware 1.1.0 installed (was
 * 1.0.0); the upload resumed at 37%; configuration … applied"); each part is said on its own.
 */
export function resultText(message: string, words: Words = englishWords()): string {
  return message
    .split('; ')
    .map((part) => stepSummaryText(part, words))
    .join(words.t('workbench:stepSummary.separator'));
}

export function stepSummaryText(summary: string, words: Words = englishWords()): string {
  for (const [pattern, key, names] of SENTENCES) {
    const found = pattern.exec(summary);
    if (!found) continue;
    const values = Object.fromEntries(
      names.map((name, i) => [name, name === 'percent' ? Number(found[i + 1]) / 100 : found[i + 1]!]),
    );
    return words.t(`workbench:stepSummary.${key}`, values);
  }
  return summary;
}
