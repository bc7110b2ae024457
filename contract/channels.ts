import type { z } from 'zod';
import type { AnyChannelSpec, ChannelSpec } from './channel-spec';
import { ACCOUNTABILITY_CHANNELS } from './accountability';
import { CONFIGURATION_CHANNELS } from './configurations';
import { CoreError } from './errors';
import { DOWNLOAD_CHANNELS } from './downloads';
import { CACHE_CHANNELS, FIRMWARE_CHANNELS } from './firmware';
import { JOBS_CHANNELS } from './jobs';
import { LEDGER_CHANNELS } from './ledger';
import { OUTBOX_CHANNELS } from './outbox';
import { PACKAGE_CHANNELS, PACKAGE_FILE_CHANNELS } from './packages';
import { READBACK_CHANNELS } from './readback';
import { REGISTRY_CHANNELS } from './registry';
import { SESSION_CHANNELS } from './session';
import { SIMULATION_CHANNELS } from './simulation';
import { STATION_CHANNELS } from './station';
import { SUPPORT_CHANNELS } from './support';
import { WORKBENCH_CHANNELS } from './workbench';

/**
 * Every channel between the renderer and the core, by name. Main (Electron IPC), the preload and
 * the web-mode server take their list of names from here; nothing else defines a channel.
 */
export const CONTRACT = {
  ...SESSION_CHANNELS,
  ...CONFIGURATION_CHANNELS,
  ...REGISTRY_CHANNELS,
  ...FIRMWARE_CHANNELS,
  ...CACHE_CHANNELS,
  ...DOWNLOAD_CHANNELS,
  ...WORKBENCH_CHANNELS,
  ...JOBS_CHANNELS,
  ...OUTBOX_CHANNELS,
  ...LEDGER_CHANNELS,
  ...READBACK_CHANNELS,
  ...SUPPORT_CHANNELS,
  ...STATION_CHANNELS,
  ...PACKAGE_CHANNELS,
  ...PACKAGE_FILE_CHANNELS,
  ...ACCOUNTABILITY_CHANNELS,
  ...SIMULATION_CHANNELS,
} as const;

export type Contract = typeof CONTRACT;
export type Channel = keyof Contract;
export type ChannelKind<C extends Channel> = Contract[C]['kind'];
/** What the caller passes (defaults may be left out). */
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
/** What the core receives: parsed, with defaults filled in. */
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelResult<C extends Channel> =
  Contract[C] extends ChannelSpec<'command' | 'query', z.ZodType, infer R> ? R : never;

export const CHANNELS = Object.keys(CONTRACT) as Channel[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CONTRACT, name);
}

/** Parse one channel's input as it arrives; a `CoreError('INVALID_INPUT')` lists what is wrong. */
export function parseChannelInput<C extends Channel>(channel: C, raw: unknown): ParsedInput<C> {
  const spec: AnyChannelSpec = CONTRACT[channel];
  const parsed = spec.input.safeParse(raw ?? {});
  if (!parsed.success) {
    const violations = parsed.error.issues.map((issue) => ({
      code: 'INVALID_INPUT',
      field: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw new CoreError(
      'INVALID_INPUT',
      `Invalid input for ${channel}: ${violations.map((v) => `${v.field || 'input'}: ${v.message}`).join('; ')}`,
      violations,
    );
  }
  return parsed.data as ParsedInput<C>;
}
