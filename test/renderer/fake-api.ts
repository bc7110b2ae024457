import type {
  Channel,
  ChannelInput,
  ChannelResult,
  EventStream,
  EventStreams,
  InvokeOutcome,
  RendererApi,
  WireError,
} from '../../contract/index';
import { createClient, setClient } from '../../renderer/api/client';

type Answer<C extends Channel> =
  ChannelResult<C> | WireError | ((input: ChannelInput<C>) => ChannelResult<C> | WireError);

/**
 * A RendererApi a test scripts: answers per channel, a record of the calls, and events it emits
 * as the core would.
 */
export class FakeApi implements RendererApi {
  readonly calls: { channel: Channel; input: unknown }[] = [];
  private readonly answers = new Map<Channel, Answer<Channel>>();
  private readonly listeners = new Map<EventStream, Set<(payload: never) => void>>();

  answer<C extends Channel>(channel: C, answer: Answer<C>): this {
    this.answers.set(channel, answer as unknown as Answer<Channel>);
    return this;
  }

  async invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<InvokeOutcome<ChannelResult<C>>> {
    this.calls.push({ channel, input });
    const answer = this.answers.get(channel);
    if (answer === undefined)
      return {
        ok: false,
        error: { code: 'UNKNOWN_CHANNEL', message: `No answer for ${channel}`, violations: [], httpStatus: null },
      };
    const value = typeof answer === 'function' ? (answer as (i: unknown) => unknown)(input) : answer;
    if (isWireError(value)) return { ok: false, error: value };
    return { ok: true, value: value as ChannelResult<C> };
  }

  on<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void {
    let set = this.listeners.get(stream);
    if (!set) {
      set = new Set();
      this.listeners.set(stream, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<S extends EventStream>(stream: S, payload: EventStreams[S]): void {
    for (const listener of this.listeners.get(stream) ?? []) (listener as (p: EventStreams[S]) => void)(payload);
  }

  /** Makes this the renderer's connection to the core. */
  install(): this {
    setClient(createClient(this));
    return this;
  }
}

function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    'message' in value &&
    'violations' in value &&
    'httpStatus' in value
  );
}
