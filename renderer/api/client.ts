import type {
  Channel,
  ChannelInput,
  ChannelResult,
  ErrorCode,
  EventStream,
  EventStreams,
  RendererApi,
  WireError,
} from '../../contract/index';
import type { Violation } from '../../domain/violations';
import type { WorkPackageRefusal } from '../../domain/work-package-refusal';

/** A failed call, with the core's code and the violations to show beside their fields. */
export class ProvisionerError extends Error {
  override readonly name = 'ProvisionerError';
  readonly code: ErrorCode;
  readonly violations: Violation[];
  readonly httpStatus: number | null;
  /** Why a work package cannot be made, as a code and its values (workPackageRefusalText says it). */
  readonly workPackageRefusal: WorkPackageRefusal | null;
  constructor(error: WireError) {
    super(error.message);
    this.code = error.code;
    this.violations = error.violations;
    this.httpStatus = error.httpStatus;
    this.workPackageRefusal = error.workPackageRefusal ?? null;
  }
}

/** The renderer's only way to the core: `window.provisioner`, unwrapped so a failure throws. */
export interface Client {
  call<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelResult<C>>;
  on<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
}

export function createClient(api: RendererApi): Client {
  return {
    async call(channel, input) {
      const outcome = await api.invoke(channel, input);
      if (!outcome.ok) throw new ProvisionerError(outcome.error);
      return outcome.value;
    },
    on: (stream, listener) => api.on(stream, listener),
  };
}

let current: Client | null = null;

/** Set once at start (main.tsx), or by a test with a fake API. */
export function setClient(client: Client): void {
  current = client;
}

export function client(): Client {
  if (!current) throw new Error('The renderer has no connection to the core yet.');
  return current;
}

/** The text a person reads for any failure. */
export function errorText(err: unknown): string {
  if (err instanceof ProvisionerError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function violationsOf(err: unknown): Violation[] {
  return err instanceof ProvisionerError ? err.violations : [];
}
