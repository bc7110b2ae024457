import { z } from 'zod';
import { DEVICE_TYPES, deviceTypeSchema, type DeviceType } from '../domain/device-types';
import {
  apiKeyRoleSchema,
  canKBitrateSchema,
  canModeSchema,
  configurationSortOptionSchema,
  deviceRoleSchema,
  inputConfigurationSchema,
  ismTxPowerSchema,
  serialBaudrateSchema,
  serialUsageSchema,
  sortDirectionSchema,
  stopCategorySchema,
  templateInterfaceSchema,
  templateSortBySchema,
  timeoutConfigurationSchema,
  userRoleSchema,
  userSortOptionSchema,
  voltageSchema,
  type ApiKeyRole,
  type Region,
} from '../domain/enums';
import type { Violation } from '../domain/violations';
import type { ConfigurationDeviceRecord, ConfigurationRecord } from '../domain/configuration-record';
import type { DeviceRecord } from '../domain/registered-device-record';
import type { IpNetworkTemplateRecord } from '../domain/ip-network-template';
import type { UserRecord } from '../domain/users';
import type { ApiKeyRecord } from '../domain/api-keys';
import { JOB_ACTIONS, type JobView } from '../domain/jobs';

/**
 * The one contract between the renderer and the core that hosts the device I/O and the service
 * client. Main (Electron IPC), the preload, the web-mode WebSocket bridge and the renderer all
 * import it; nothing else defines a channel. Every channel has:
 * - a kind: a `query` reads and may be repeated freely; a `command` changes something.
 * - an input zod schema: the receiving end (main, or the web server) parses every input with it
 *   before the core sees it, because a renderer is untrusted.
 * - a result type (phantom, type-only): what `invoke` resolves to.
 *
 * Secrets never travel towards the renderer: the API key goes in on sign-in and is kept in main;
 * no result type has a field that could carry it.
 */

// ---------------------------------------------------------------------------------------------
// Shared shapes

const nonEmpty = z.string().trim().min(1);
const serialNumber = z.string().trim().min(1).max(64);
const uuidLike = z.string().trim().min(1).max(64);
/** The service caps a page at 30 records and numbers pages from 1. */
const pageQuery = {
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(30).default(20),
};
/** A device image: a data URL (`data:image/png;base64,...`); the service stores the text as sent. */
const deviceImage = z.string().max(2_000_000);

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  totalCount: number;
}

/** The configuration settings a technician edits. Shapes only: the rules live in domain/ and the service. */
export const configurationSettingsSchema = z.object({
  name: z.string().nullable().optional(),
  startingIpAddress: z.string().nullable().optional(),
  ismTxPower: ismTxPowerSchema.nullable().optional(),
  ismTxChannel: z.number().int().nullable().optional(),
  ismNetworkId: z.number().int().nullable().optional(),
  canMode: canModeSchema.nullable().optional(),
  canKBitrate: canKBitrateSchema.nullable().optional(),
  displayTextPgn: z.number().int().nullable().optional(),
  settingsPgn: z.number().int().nullable().optional(),
  approvedSourceAddresses: z.array(z.number().int()).max(256).nullable().optional(),
  receiverOutputControl: z.number().int().nullable().optional(),
  timeoutConfiguration: timeoutConfigurationSchema.nullable().optional(),
});
export type ConfigurationSettings = z.infer<typeof configurationSettingsSchema>;

/** A device's settings inside a configuration (add and update payloads share it; serialNumber is separate). */
export const configurationDeviceSettingsSchema = z.object({
  ipAddress: z.string().nullable().optional(),
  deviceConfigurationType: deviceRoleSchema.nullable().optional(),
  commInterface: z.string().max(64).nullable().optional(),
  inputConfiguration1: inputConfigurationSchema.nullable().optional(),
  inputConfiguration2: inputConfigurationSchema.nullable().optional(),
  inputConfiguration3: inputConfigurationSchema.nullable().optional(),
  can0Id: z.number().int().nullable().optional(),
  can1Id: z.number().int().nullable().optional(),
  voltage: voltageSchema.nullable().optional(),
  serial0Usage: serialUsageSchema.nullable().optional(),
  serial1Usage: serialUsageSchema.nullable().optional(),
  serial0Baudrate: serialBaudrateSchema.nullable().optional(),
  serial1Baudrate: serialBaudrateSchema.nullable().optional(),
  stopCategory: stopCategorySchema.nullable().optional(),
  cat1StopDelay: z.number().nullable().optional(),
  ossdEnabled: z.boolean().nullable().optional(),
  ethNetmask: z.string().nullable().optional(),
  ethGateway: z.string().nullable().optional(),
  ethNameservers: z.array(z.string()).max(8).nullable().optional(),
  wifiNetmask: z.string().nullable().optional(),
  wifiGateway: z.string().nullable().optional(),
  wifiNameservers: z.array(z.string()).max(8).nullable().optional(),
  wifiSsid: z.string().nullable().optional(),
  wifiPassword: z.string().nullable().optional(),
  networkTemplateId: z.string().nullable().optional(),
});
export type ConfigurationDeviceSettings = z.infer<typeof configurationDeviceSettingsSchema>;

export const networkTemplatePayloadSchema = z.object({
  ipNetworkTemplateName: nonEmpty,
  commInterface: templateInterfaceSchema,
  netmask: nonEmpty,
  gatewayIpAddress: z.string().nullable().optional(),
  nameservers: z.array(z.string()).max(8).nullable().optional(),
  ssid: z.string().nullable().optional(),
  password: z.string().nullable().optional(),
});
export type NetworkTemplatePayload = z.infer<typeof networkTemplatePayloadSchema>;

// ---------------------------------------------------------------------------------------------
// Result shapes (what the core returns; plain data, structured-clone and JSON safe)

/** What the signed-in key may do, decided in main from the service's role matrix. */
export const CAPABILITIES = [
  'configurations.read',
  'configurations.write',
  'devices.read',
  'devices.write',
  'files.download',
  'confirmations.send',
  'templates.read',
  'templates.write',
  'users.manage',
  'keys.manage',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type CapabilityState = { allowed: true } | { allowed: false; reason: string };

export type SessionView =
  | { status: 'signedOut'; lastServiceUrl: string | null; lastOrgId: string | null }
  | {
      status: 'signedIn';
      /** `local`: the embedded service of the local workspace; `service`: a service URL the technician entered. */
      kind: 'local' | 'service';
      serviceUrl: string;
      orgId: string;
      organizationName: string | null;
      region: Region | null;
      /** Name of the key (its service account), never its value. */
      keyName: string | null;
      role: ApiKeyRole;
      capabilities: Record<Capability, CapabilityState>;
      /** Whether the key is stored for the next start (safeStorage in Electron, a 0600 file elsewhere). */
      remembered: boolean;
    };

/** Records as the service returns them (domain/ owns their schemas). */
export type ConfigurationView = ConfigurationRecord;
export type ConfigurationDeviceView = ConfigurationDeviceRecord;
export type RegisteredDeviceView = DeviceRecord;
export type NetworkTemplateView = IpNetworkTemplateRecord;
export type UserView = UserRecord;
/** `key` is only ever the masked form or null: whole keys never reach the renderer. */
export type ApiKeyView = ApiKeyRecord;

export interface DeviceFileReadiness {
  serialNumber: string;
  deviceType: DeviceType | null;
  ready: boolean;
  /** Why the file cannot be downloaded yet, phrased for the technician. */
  reason: string | null;
}

export interface ConfigurationStatusView {
  complete: boolean;
  violations: Violation[];
  devices: DeviceFileReadiness[];
}

/** A write the service judged: `violations` empty means it was accepted (or would be, for a dry run). */
export interface WriteOutcome<T> {
  dryRun: boolean;
  violations: Violation[];
  value: T | null;
}

export interface CachedFirmwareView {
  deviceType: DeviceType;
  version: string;
  sha256: string;
  size: number;
  storedAt: string | null;
}

export interface FirmwareTypeView {
  deviceType: DeviceType;
  /** Latest version the service offers; null when it has none or could not be asked (see `error`). */
  latestVersion: string | null;
  cached: CachedFirmwareView[];
  latestCached: boolean;
  error: string | null;
}

export type LinkKind = 'serial' | 'ble' | 'udp';

/** What an attached device needs, as far as the core can tell. */
export interface DeviceNeeds {
  firmware: { needed: boolean; latestVersion: string | null; reason: string | null };
  configuration: { needed: boolean; syncId: string | null; reason: string | null };
}

export interface AttachedDeviceView {
  /** Stable while attached, e.g. `serial:/dev/pts/3`; what jobs target. */
  linkId: string;
  linkKind: LinkKind;
  /** Where: a port path, an IP address or a BLE address. */
  address: string;
  serialNumber: string | null;
  deviceType: DeviceType | null;
  model: string | null;
  firmwareVersion: string | null;
  configSyncId: string | null;
  /** Why the device could not be identified (e.g. no answer to the info request). */
  error: string | null;
  needs: DeviceNeeds | null;
  /** The running or last job on this device. */
  activeJobId: string | null;
}

// The job vocabulary lives in the domain so the core, the CLI and the renderer share it.
export { FINISHED_PHASES, JOB_ACTIONS, JOB_PHASES, type JobAction, type JobPhase, type JobView } from '../domain/jobs';

export interface OutboxEntryView {
  id: string;
  kind: 'firmware' | 'configuration';
  serialNumber: string;
  serviceUrl: string;
  orgId: string;
  state: 'pending' | 'rejected';
  createdAt: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** One line: what is being confirmed (version or syncId and success/failure). */
  summary: string;
}

export interface OutboxView {
  entries: OutboxEntryView[];
  pendingCount: number;
  rejectedCount: number;
  oldestPendingSince: string | null;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface LogLine {
  seq: number;
  at: string;
  level: LogLevel;
  source: string;
  message: string;
}

export interface AppInfo {
  appVersion: string;
  host: 'electron' | 'web' | 'test';
  platform: string;
  nodeVersion: string;
}

export interface SupportReport {
  fileName: string;
  /** JSON text, secrets removed. */
  content: string;
}

// ---------------------------------------------------------------------------------------------
// Channels

interface ChannelSpec<K extends 'command' | 'query', I extends z.ZodType, R> {
  kind: K;
  input: I;
  /** Type-only: never set at runtime. */
  readonly result?: R;
}

function query<I extends z.ZodType>(input: I) {
  return { returns: <R>(): ChannelSpec<'query', I, R> => ({ kind: 'query', input }) };
}
function command<I extends z.ZodType>(input: I) {
  return { returns: <R>(): ChannelSpec<'command', I, R> => ({ kind: 'command', input }) };
}
const none = z.object({}).strict();

export const CONTRACT = {
  // App and session
  'app.info': query(none).returns<AppInfo>(),
  'session.get': query(none).returns<SessionView>(),
  'session.signIn': command(
    z
      .object({
        serviceUrl: z.url({ protocol: /^https?$/ }),
        orgId: nonEmpty.max(128),
        apiKey: nonEmpty.max(512),
        remember: z.boolean().default(true),
      })
      .strict(),
  ).returns<SessionView>(),
  'session.useLocalWorkspace': command(none).returns<SessionView>(),
  'session.signOut': command(z.object({ forget: z.boolean().default(false) }).strict()).returns<SessionView>(),

  // Configurations
  'configurations.list': query(
    z.object({ search: z.string().max(200).optional(), sortOptions: configurationSortOptionSchema.optional(), ...pageQuery }).strict(),
  ).returns<Page<ConfigurationView>>(),
  'configurations.get': query(z.object({ id: uuidLike }).strict()).returns<ConfigurationView>(),
  'configurations.create': command(
    z.object({ settings: configurationSettingsSchema.extend({ name: nonEmpty.max(200) }) }).strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.update': command(
    z.object({ id: uuidLike, settings: configurationSettingsSchema, dryRun: z.boolean().default(false) }).strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.delete': command(z.object({ id: uuidLike }).strict()).returns<boolean>(),
  'configurations.status': query(z.object({ id: uuidLike }).strict()).returns<ConfigurationStatusView>(),
  'configurations.addDevice': command(
    z
      .object({ id: uuidLike, serialNumber, settings: configurationDeviceSettingsSchema, dryRun: z.boolean().default(false) })
      .strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.updateDevice': command(
    z
      .object({ id: uuidLike, serialNumber, settings: configurationDeviceSettingsSchema, dryRun: z.boolean().default(false) })
      .strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.removeDevice': command(z.object({ id: uuidLike, serialNumber }).strict()).returns<ConfigurationView>(),

  // Registered devices
  'devices.list': query(
    z
      .object({
        search: z.string().max(200).optional(),
        serial: z.string().max(64).optional(),
        configurableOnly: z.boolean().optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<Page<RegisteredDeviceView>>(),
  'devices.register': command(
    z.object({ serialNumber, name: nonEmpty.max(200), deviceImage: deviceImage.nullable().default(null) }).strict(),
  ).returns<RegisteredDeviceView>(),
  'devices.update': command(
    z
      .object({
        serialNumber,
        name: nonEmpty.max(200).optional(),
        deviceImage: deviceImage.optional(),
        deleteImage: z.boolean().optional(),
      })
      .strict(),
  ).returns<RegisteredDeviceView>(),

  // Firmware
  'firmware.overview': query(none).returns<FirmwareTypeView[]>(),
  'firmware.download': command(z.object({ deviceType: deviceTypeSchema }).strict()).returns<CachedFirmwareView>(),

  // IP network templates
  'templates.list': query(
    z
      .object({
        nameFilter: z.string().max(200).optional(),
        typeFilter: templateInterfaceSchema.optional(),
        sortBy: templateSortBySchema.optional(),
        sortDirection: sortDirectionSchema.optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<NetworkTemplateView[]>(),
  'templates.get': query(z.object({ id: uuidLike }).strict()).returns<NetworkTemplateView>(),
  'templates.create': command(z.object({ template: networkTemplatePayloadSchema }).strict()).returns<NetworkTemplateView>(),

  // Users
  'users.list': query(
    z
      .object({
        isActive: z.boolean().optional(),
        search: z.string().max(200).optional(),
        sortOptions: userSortOptionSchema.optional(),
        ...pageQuery,
      })
      .strict(),
  ).returns<Page<UserView>>(),
  'users.register': command(z.object({ email: z.email(), userRole: userRoleSchema }).strict()).returns<boolean>(),
  'users.delete': command(z.object({ id: uuidLike }).strict()).returns<boolean>(),
  'users.updateRole': command(z.object({ id: uuidLike, userRole: userRoleSchema }).strict()).returns<boolean>(),

  // API keys. KeyFormat Visible is not offered: whole keys never reach the renderer.
  'apiKeys.list': query(
    z
      .object({
        nameFilter: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(30).default(30),
        offset: z.number().int().min(0).default(0),
        includeApiKeys: z.boolean().default(false),
        keyFormat: z.enum(['None', 'Masked']).default('Masked'),
      })
      .strict(),
  ).returns<ApiKeyView[]>(),
  'apiKeys.updateRole': command(z.object({ keyName: nonEmpty.max(200), role: apiKeyRoleSchema }).strict()).returns<boolean>(),

  // Bench: attached devices and the jobs that provision them
  'bench.devices': query(none).returns<AttachedDeviceView[]>(),
  'bench.rescan': command(none).returns<AttachedDeviceView[]>(),
  'bench.start': command(
    z.object({ linkIds: z.array(z.string().min(1).max(256)).min(1).max(64), action: z.enum(JOB_ACTIONS) }).strict(),
  ).returns<JobView[]>(),
  'bench.cancel': command(z.object({ jobId: nonEmpty.max(128) }).strict()).returns<boolean>(),
  'bench.retry': command(z.object({ jobId: nonEmpty.max(128) }).strict()).returns<JobView>(),
  'bench.jobs': query(none).returns<JobView[]>(),
  'bench.clearFinished': command(none).returns<JobView[]>(),

  // Outbox, logs and support
  'outbox.get': query(none).returns<OutboxView>(),
  'outbox.sendNow': command(none).returns<OutboxView>(),
  'logs.recent': query(z.object({ limit: z.number().int().min(1).max(2000).default(500) }).strict()).returns<LogLine[]>(),
  'support.report': command(none).returns<SupportReport>(),
} as const;

export type Contract = typeof CONTRACT;
export type Channel = keyof Contract;
export type ChannelKind<C extends Channel> = Contract[C]['kind'];
/** What the caller passes (defaults may be left out). */
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
/** What the core receives: parsed, with defaults filled in. */
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelResult<C extends Channel> = Contract[C] extends ChannelSpec<'command' | 'query', z.ZodType, infer R> ? R : never;

export const CHANNELS = Object.keys(CONTRACT) as Channel[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(CONTRACT, name);
}

// ---------------------------------------------------------------------------------------------
// Event streams (main to renderer)

export interface EventStreams {
  /** The session changed (sign-in, sign-out, key rejected). */
  'session.changed': SessionView;
  /** The whole list of attached devices, whenever one appears, disappears or is identified. */
  'bench.devicesChanged': AttachedDeviceView[];
  /** Jobs whose state changed, throttled: a batch at most every ~100 ms per job. */
  'jobs.progress': JobView[];
  'outbox.changed': OutboxView;
  'logs.line': LogLine;
}
export type EventStream = keyof EventStreams;
export const EVENT_STREAMS: readonly EventStream[] = ['session.changed', 'bench.devicesChanged', 'jobs.progress', 'outbox.changed', 'logs.line'];

export function isEventStream(name: unknown): name is EventStream {
  return typeof name === 'string' && (EVENT_STREAMS as readonly string[]).includes(name);
}

// ---------------------------------------------------------------------------------------------
// The two ends

/** What main (Electron) and the web server host: the core, behind the contract. */
export interface CoreHost {
  /** `input` is already parsed with the channel's schema (use `parseChannelInput`). Rejects with a `CoreError`. */
  invoke<C extends Channel>(channel: C, input: ParsedInput<C>): Promise<ChannelResult<C>>;
  subscribe<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
}

export const ERROR_CODES = [
  'INVALID_INPUT',
  'UNKNOWN_CHANNEL',
  'NOT_SIGNED_IN',
  'NOT_ALLOWED',
  'AUTH_FAILED',
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION',
  'SERVICE_UNREACHABLE',
  'SERVICE_ERROR',
  'DEVICE_ERROR',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error as it crosses the boundary: plain data (Electron IPC and JSON drop class and fields of Errors). */
export interface WireError {
  code: ErrorCode;
  message: string;
  /** The service's violations (or the input schema's), each beside its field. */
  violations: Violation[];
  httpStatus: number | null;
}

export type InvokeOutcome<R> = { ok: true; value: R } | { ok: false; error: WireError };

/** Thrown by the core; turned into a `WireError` by `invokeForWire`. */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly violations: Violation[] = [],
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** What `window.provisioner` exposes (Electron preload, or renderer/bridge/websocket.ts in web mode). */
export interface RendererApi {
  invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<InvokeOutcome<ChannelResult<C>>>;
  on<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
}

/** Parse one channel's input as it arrives; a `CoreError('INVALID_INPUT')` lists what is wrong. */
export function parseChannelInput<C extends Channel>(channel: C, raw: unknown): ParsedInput<C> {
  const spec = CONTRACT[channel] as ChannelSpec<'command' | 'query', z.ZodType, unknown>;
  const parsed = spec.input.safeParse(raw ?? {});
  if (!parsed.success) {
    const violations = parsed.error.issues.map((issue) => ({
      code: 'INVALID_INPUT',
      field: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    throw new CoreError('INVALID_INPUT', `Invalid input for ${channel}: ${violations.map((v) => `${v.field || 'input'}: ${v.message}`).join('; ')}`, violations);
  }
  return parsed.data as ParsedInput<C>;
}

export function toWireError(err: unknown): WireError {
  if (err instanceof CoreError) {
    return { code: err.code, message: err.message, violations: err.violations, httpStatus: err.httpStatus };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message, violations: [], httpStatus: null };
}

/**
 * The whole receiving end of one call, for any transport: check the channel, parse the input,
 * run it, and turn every failure into plain data. Never rejects.
 */
export async function invokeForWire(host: CoreHost, channel: unknown, rawInput: unknown): Promise<InvokeOutcome<unknown>> {
  try {
    if (!isChannel(channel)) throw new CoreError('UNKNOWN_CHANNEL', `Unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`);
    const input = parseChannelInput(channel, rawInput);
    const value = await host.invoke(channel, input);
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: toWireError(err) };
  }
}

export { DEVICE_TYPES };

/** Electron IPC channel names that carry the contract (one for calls, one for events). */
export const IPC_INVOKE_CHANNEL = 'provisioner:invoke';
export const IPC_EVENT_CHANNEL = 'provisioner:event';

// ---------------------------------------------------------------------------------------------
// Web mode: the same contract as JSON messages over one WebSocket (main/web, renderer/bridge)

/** Query parameter carrying the per-run token on the WebSocket URL (`/contract?token=...`). */
export const WEB_TOKEN_PARAM = 'token';
export const WEB_SOCKET_PATH = '/contract';

export const webClientMessageSchema = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  input: z.unknown(),
});
export type WebClientMessage = z.infer<typeof webClientMessageSchema>;

export type WebServerMessage =
  | { type: 'result'; id: number; outcome: InvokeOutcome<unknown> }
  | { type: 'event'; stream: EventStream; payload: unknown };
