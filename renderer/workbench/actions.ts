import type { AttachedDeviceView, JobAction } from '../../contract/index';

/**
 * Which Workbench actions can succeed on the chosen devices, and why not when they cannot: a
 * device in no configuration can take firmware but no configuration, so "Apply configuration"
 * and "Both" are offered disabled with the reason; devices already on the latest firmware are
 * offered "Verify firmware" (the job reads the version back and sends nothing), not "Update".
 */
export interface ActionOffer {
  action: JobAction;
  label: string;
  disabledReason: string | null;
}

export function actionOffers(chosen: readonly AttachedDeviceView[]): ActionOffer[] {
  const noSelection = chosen.length === 0 ? 'Select one or more devices first.' : null;
  const blocked = chosen.flatMap((d) => (d.needs?.configuration.blocked ? [d.needs.configuration.blocked.reason] : []));
  const configurationReason = noSelection ?? (blocked.length > 0 ? blocked.join('; ') : null);
  return [
    { action: 'firmware', label: allUpToDate(chosen) ? 'Verify firmware' : 'Update firmware', disabledReason: noSelection },
    { action: 'configuration', label: 'Apply configuration', disabledReason: configurationReason },
    { action: 'both', label: 'Both', disabledReason: configurationReason },
  ];
}

/** Every chosen device runs the latest firmware the service knows of. */
export function allUpToDate(chosen: readonly AttachedDeviceView[]): boolean {
  return chosen.length > 0 && chosen.every((d) => d.needs !== null && d.needs.firmware.latestVersion !== null && !d.needs.firmware.needed);
}

/** Devices among the chosen that no configuration can be applied to. */
export function blockedDevices(chosen: readonly AttachedDeviceView[]): AttachedDeviceView[] {
  return chosen.filter((d) => d.needs?.configuration.blocked);
}
