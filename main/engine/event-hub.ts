import type { EventStream, EventStreams } from '../../contract/index';

type Listener<S extends EventStream> = (payload: EventStreams[S]) => void;

/** The core's event streams: every part emits here, every transport subscribes here. */
export class EventHub {
  private readonly listeners = new Map<EventStream, Set<(payload: never) => void>>();

  subscribe<S extends EventStream>(stream: S, listener: Listener<S>): () => void {
    let set = this.listeners.get(stream);
    if (!set) {
      set = new Set();
      this.listeners.set(stream, set);
    }
    const stored = listener as (payload: never) => void;
    set.add(stored);
    return () => {
      set.delete(stored);
    };
  }

  emit<S extends EventStream>(stream: S, payload: EventStreams[S]): void {
    for (const listener of this.listeners.get(stream) ?? []) {
      try {
        (listener as Listener<S>)(payload);
      } catch {
        // A broken subscriber (a closed window) must not stop the others or the emitter.
      }
    }
  }
}
