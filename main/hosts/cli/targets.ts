import { parseLinkSpec } from '../../devices';
import type { JobTargetView, TargetProblem } from '../../../contract/index';
import type { CliContext } from './context';
import { CliError, EXIT } from './errors';
import { t } from './cli-language';

export interface TargetSelection {
  serialNumbers: readonly string[];
  links: readonly string[];
  all?: boolean;
}

export interface ResolvedTargets {
  targets: JobTargetView[];
  /** One line per device asked for and not found. */
  missing: string[];
}

/**
 * Turns what the technician typed into job targets: the usage is checked here, the lookup and the
 * shared-serial rule are the core's (`jobs.resolveTargets`, main/core/handlers/jobs.ts), and why a
 * device is not a target is said here in the run's language.
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
  const { targets, problems } = await ctx.core().invoke('jobs.resolveTargets', {
    serialNumbers: [...serialNumbers],
    links: [...links],
    all: all ?? false,
  });
  const missing = problems.map(problemLine);
  if (all && targets.length === 0 && missing.length === 0) throw new CliError(t('cli:targets.allNone'));
  return { targets, missing };
}

/** One line per device asked for and not a target. */
function problemLine(problem: TargetProblem): string {
  switch (problem.kind) {
    case 'sharedSerial':
      return t('cli:targets.notStarted', { serial: problem.serialNumber, reason: problem.reason });
    case 'notAnswering':
      return problem.attached.length > 0
        ? t('cli:targets.notAnswering', { serial: problem.serialNumber, attached: problem.attached.join(', ') })
        : t('cli:targets.notAnsweringNone', { serial: problem.serialNumber });
    case 'noAnswer':
      return `${problem.link}: ${problem.error ?? t('cli:targets.noAnswer')}`;
  }
}
