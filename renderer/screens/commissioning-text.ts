import type { Translator } from '../../domain/i18n/index.js';
import type { CommissioningStep } from '../../domain/ledger-commissioning';
import type { CommissioningView } from '../../contract/index';

/**
 * A device's commissioning in the devices table, in the reader's language: the badge's short
 * words ("Function test failed", "Needs parameters, function test") and the tooltip's whole
 * sentence with the steps still missing, as domain/ledger-commissioning.ts says them in English.
 */
export function commissioningCellText(
  commissioning: Pick<CommissioningView, 'state' | 'missing'>,
  words: Pick<Translator, 't' | 'locale'>,
): { short: string; detail: string } {
  const { t } = words;
  const list = (steps: readonly CommissioningStep[]) =>
    new Intl.ListFormat(words.locale, { style: 'short', type: 'unit' }).format(
      steps.map((step) => t(`screens:devices.commissioning.step.${step}`)),
    );
  const { state, missing } = commissioning;
  const sentence = t(`screens:devices.commissioning.detail.${state}`);
  if (state === 'commissioned') return { short: t('screens:devices.commissioning.commissioned'), detail: sentence };
  // The words of a failed step already name it; the rest still missing follow.
  const named: CommissioningStep | null =
    state === 'not-commissioned' ? 'function test' : state === 'parameters-differ' ? 'parameter verification' : null;
  const rest = missing.filter((step) => step !== named);
  const detail =
    rest.length > 0 ? t('screens:devices.commissioning.missing', { state: sentence, steps: list(rest) }) : sentence;
  const short =
    named === null
      ? t('screens:devices.commissioning.needs', { steps: list(missing) })
      : t(`screens:devices.commissioning.${state}`);
  return { short, detail };
}
