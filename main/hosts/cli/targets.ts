import { parseLinkSpec } from '../../devices';
import type { AttachedDevice, DeviceTarget } from '../../engine/jobs';
import type { CliContext } from './context';
import { CliError, EXIT } from './errors';
import { sharedSerialRefusal, sharedSerials } from '../../../domain/shared-serial';
import { t } from './cli-language';

export interface TargetSelection {
  serialNumbers: readonly string[];
  links: readonly string[];
  all?: boolean;
}

export interface ResolvedTargets {
  targets: DeviceTarget[];
  /** One line per device asked for and not found. */
  missing: string[];
}

/**
 * Turns what the technician typed into job targets. Links alone are used as given (the job checks
 * who answers). Serial numbers are looked up once, by discovery over every attached device and
 * the given links, so that 16 devices do not each probe every port.
 */
export async function resolveTargets(ctx: CliContext, selection: TargetSelection): Promise<ResolvedTargets> {
  const { serialNumbers, links, all } = selection;
  if (serialNumbers.length === 0 && links.length === 0 && !all)
    throw new CliError(t('cli:targets.noDevice'), EXIT.usage);
  for (const spec of links) {
    try {
      parseLinkSpec(spec);
    } catch (error) {
      throw new CliError(
        t('cli:targets.badLink', { reason: error instanceof Error ? error.message.replace(/\.$/, '') : String(error) }),
        EXIT.usage,
      );
    }
  }
  if (serialNumbers.length === 0 && !all)
    return { targets: links.map((spec) => ({ kind: 'link', spec })), missing: [] };
  if (serialNumbers.length === 1 && links.length === 1 && !all) {
    // "SN on this link": the job refuses to talk on if another device answers there.
    return { targets: [{ kind: 'link', spec: links[0]!, serialNumber: serialNumbers[0]! }], missing: [] };
  }
  const attached = await ctx.finder().list({ extraLinks: links });
  const identified = attached.filter(
    (d): d is AttachedDevice & { identity: NonNullable<AttachedDevice['identity']> } => d.identity !== null,
  );
  const targets: DeviceTarget[] = [];
  const missing: string[] = [];
  const wanted = new Set(serialNumbers);
  // Two attached devices that claim one serial number: neither is known to be the real one, and a
  // job's confirmation would speak for that serial. Neither is a target, whatever named it.
  const shared = sharedSerials(identified.map((d) => ({ serialNumber: d.identity.serialNumber, link: d.link })));
  const refusedShared = new Set<string>();
  const refuseShared = (serialNumber: string): boolean => {
    const refusal = sharedSerialRefusal(shared, serialNumber);
    if (!refusal) return false;
    if (!refusedShared.has(serialNumber))
      missing.push(t('cli:targets.notStarted', { serial: serialNumber, reason: refusal }));
    refusedShared.add(serialNumber);
    return true;
  };
  for (const serialNumber of serialNumbers) {
    const found = identified.find((d) => d.identity.serialNumber === serialNumber);
    if (found && refuseShared(serialNumber)) continue;
    if (found) targets.push({ kind: 'link', spec: found.link, serialNumber });
    else {
      const seen = identified.map((d) => d.identity.serialNumber);
      missing.push(
        seen.length > 0
          ? t('cli:targets.notAnswering', { serial: serialNumber, attached: seen.join(', ') })
          : t('cli:targets.notAnsweringNone', { serial: serialNumber }),
      );
    }
  }
  for (const device of identified) {
    if (wanted.has(device.identity.serialNumber) || !(all || links.includes(device.link))) continue;
    if (!refuseShared(device.identity.serialNumber))
      targets.push({ kind: 'link', spec: device.link, serialNumber: device.identity.serialNumber });
  }
  for (const spec of links) {
    const device = attached.find((d) => d.link === spec);
    if (device && device.identity === null) missing.push(`${spec}: ${device.error ?? t('cli:targets.noAnswer')}`);
  }
  if (all && targets.length === 0 && missing.length === 0) throw new CliError(t('cli:targets.allNone'));
  return { targets, missing };
}
