import {
  CONFIGURATION_SETTING_KEYS,
  configurationPatchSchema,
  type ConfigurationSettings,
} from '../../domain/configuration';
import type { DeviceType } from '../../domain/device-types';
import type { Region } from '../../domain/enums';
import { mergeConfigurationPatch } from '../../domain/merge';
import { parsePayload } from '../../domain/parse';
import { validateConfigurationSettings } from '../../domain/rules/configuration-settings';
import { errorsOf, warningsOf } from '../../domain/rules/rule-sources';
import type { Violation } from '../../domain/violations';
import { readerViolation } from '../components/violation-text';
import { englishWords, type Words } from '../../domain/domain-words';
import { dedupeViolations, onFieldsNotRefused, parseJudgingTheRest } from './violations';
import { listText, numberText, parseInteger, parseIntegerList, type Parsed } from './text-values';

/** The configuration settings as the designer's inputs hold them: text per field. */
export const SETTING_FIELDS = CONFIGURATION_SETTING_KEYS;
export type SettingField = (typeof SETTING_FIELDS)[number];
export type SettingsDraft = Record<SettingField, string>;

type IntegerField = 'ismTxChannel' | 'ismNetworkId' | 'displayTextPgn' | 'settingsPgn' | 'receiverOutputControl';
const INTEGER_FIELDS: readonly IntegerField[] = [
  'ismTxChannel',
  'ismNetworkId',
  'displayTextPgn',
  'settingsPgn',
  'receiverOutputControl',
];

export function draftFromSettings(settings: ConfigurationSettings): SettingsDraft {
  return {
    name: settings.name ?? '',
    timeoutConfiguration: settings.timeoutConfiguration ?? '',
    ismTxPower: settings.ismTxPower ?? '',
    ismTxChannel: numberText(settings.ismTxChannel),
    ismNetworkId: numberText(settings.ismNetworkId),
    canMode: settings.canMode ?? '',
    canKBitrate: settings.canKBitrate ?? '',
    displayTextPgn: numberText(settings.displayTextPgn),
    settingsPgn: numberText(settings.settingsPgn),
    approvedSourceAddresses: listText(settings.approvedSourceAddresses),
    receiverOutputControl: numberText(settings.receiverOutputControl),
    startingIpAddress: settings.startingIpAddress ?? '',
  };
}

export interface DraftCheck {
  /** The PATCH body: only fields that differ from what is stored. */
  patch: Record<string, unknown>;
  /** The interface's rules the draft breaks: Save waits until they are fixed. */
  violations: Violation[];
  /** Our own rules it breaks: shown, but they stop nothing (domain/rules/rule-sources.ts). */
  warnings: Violation[];
  changed: boolean;
}

/**
 * Everything the domain can tell about the draft before the service sees it: text that is not a
 * number, the payload schema (formats, ranges), and the settings rules on the merged result
 * (region's ISM channels, PGNs only with J1939, CAN bitrates the device types accept).
 */
export function checkSettingsDraft(
  draft: SettingsDraft,
  stored: ConfigurationSettings,
  ctx: {
    region: Region;
    deviceTypes: readonly DeviceType[];
    /** The language of the messages the draft makes; English by default. */ words?: Words;
  },
): DraftCheck {
  const words = ctx.words ?? englishWords();
  const base = draftFromSettings(stored);
  const patch: Record<string, unknown> = {};
  const found: Violation[] = [];
  for (const field of SETTING_FIELDS) {
    const text = draft[field];
    if (text === base[field]) continue;
    if (text.trim() === '') {
      // PATCH cannot unset a field (null means "leave as is"); PGNs are dropped by the service
      // itself when canMode leaves j1939, so emptying those is fine.
      if (field === 'displayTextPgn' || field === 'settingsPgn') continue;
      if (field === 'approvedSourceAddresses') {
        patch[field] = [];
        continue;
      }
      found.push(readerViolation('REQUIRED', field, words.t('designer:settings.cannotEmpty')));
      continue;
    }
    const value = toValue(field, text, words);
    if (!value.ok) found.push(value.violation);
    else patch[field] = value.value;
  }
  const parsed = parseJudgingTheRest((payload) => parsePayload(configurationPatchSchema, payload), patch);
  found.push(...parsed.refused);
  if (parsed.value)
    found.push(
      ...onFieldsNotRefused(
        validateConfigurationSettings(mergeConfigurationPatch(stored, parsed.value), {
          region: ctx.region,
          deviceTypes: ctx.deviceTypes,
        }),
        parsed.refused,
      ),
    );
  const judged = dedupeViolations(found);
  return { patch, violations: errorsOf(judged), warnings: warningsOf(judged), changed: Object.keys(patch).length > 0 };
}

function toValue(field: SettingField, text: string, words: Words): Parsed<unknown> {
  if ((INTEGER_FIELDS as readonly string[]).includes(field)) return parseInteger(text, field, words);
  if (field === 'approvedSourceAddresses') return parseIntegerList(text, field, words);
  return { ok: true, value: field === 'name' ? text : text.trim() };
}
