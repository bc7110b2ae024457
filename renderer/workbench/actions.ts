import type { AttachedDeviceView, JobAction } from '../../contract/index';
import { blockedText, sharedSerialText } from '../format/device-needs';
import { englishWords, type Words } from '../format/words';

/**
 * Which Workbench actions can succeed on the chosen devices, and why not when they cannot: a
 * device in no configuration can take firmware but no configuration, so "Apply configuration"
 * and "Both" are offered disabled with the reason; devices already on the latest firmware are
 * offered "Verify firmware" (the job reads the version back and sends nothing), not "Update".
 * A device whose serial number another attached device claims too takes no job at all: every
 * action is offered disabled with the reason (neither device is known to be the real one).
 */
export interface ActionOffer {
  action: JobAction;
  label: string;
  disabledReason: string | null;
}

export function actionOffers(chosen: readonly AttachedDeviceView[], words: Words = englishWords()): ActionOffer[] {
  const noSelection = chosen.length === 0 ? words.t('workbench:action.selectFirst') : null;
  const shared = [
    ...new Set(
      chosen.flatMap((d) =>
        d.sharedSerial && d.serialNumber ? [sharedSerialText(d.serialNumber, d.sharedSerial.links, words)] : [],
      ),
    ),
  ];
  const anyReason = noSelection ?? (shared.length > 0 ? shared.join(' ') : null);
  const blocked = chosen.flatMap((d) =>
    d.needs?.configuration.blocked
      ? [blockedText(d.needs.configuration.blocked, d.serialNumber ?? d.address, words)]
      : [],
  );
  const configurationReason = anyReason ?? (blocked.length > 0 ? blocked.join('; ') : null);
  return [
    {
      action: 'firmware',
      label: allUpToDate(chosen) ? words.t('workbench:action.verifyFirmware') : words.t('workbench:action.firmware'),
      disabledReason: anyReason,
    },
    { action: 'configuration', label: words.t('workbench:action.configuration'), disabledReason: configurationReason },
    { action: 'both', label: words.t('workbench:action.both'), disabledReason: configurationReason },
  ];
}

/** Every chosen device runs the latest firmware the service knows of. */
export function allUpToDate(chosen: readonly AttachedDeviceView[]): boolean {
  return (
    chosen.length > 0 &&
    chosen.every((d) => d.needs !== null && d.needs.firmware.latestVersion !== null && !d.needs.firmware.needed)
  );
}

/** Devices among the chosen that no configuration can be applied to. */
export function blockedDevices(chosen: readonly AttachedDeviceView[]): AttachedDeviceView[] {
  return chosen.filter((d) => d.needs?.configuration.blocked);
}
