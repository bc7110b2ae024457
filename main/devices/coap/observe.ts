import { DeviceDisconnectedError } from '../errors';
import { AsyncQueue } from '../util/async-queue';
import { observeOf, observeOption, type CoapMessage } from '../../../protocol/coap/codec';
import type { CoapEngine, CoapResponse } from './engine';
import { CODE, OBSERVE_DEREGISTER, OBSERVE_REGISTER } from '../../../protocol/coap/parameters';

export interface Observation extends AsyncIterable<CoapResponse> {
  /** The registration's response: the resource's state when registering. */
  readonly first: CoapResponse;
  /** False when the device answered without Observe (it will not notify). */
  readonly registered: boolean;
  /** Deregisters (RFC 7641 §3.6) and ends the iteration. */
  cancel(): Promise<void>;
}

export interface ObserveOptions {
  path: string;
  step: string;
  signal?: AbortSignal;
}

/** RFC 7641 §3.4: is `next` newer than `last` (24-bit sequence numbers, with a 128 s escape)? */
export function isFresher(last: number, next: number, msSinceLast: number): boolean {
  const HALF = 2 ** 23;
  return (last < next && next - last < HALF) || (last > next && last - next > HALF) || msSinceLast > 128_000;
}

/**
 * Registers as an observer of `path` and iterates its notifications, the registration response
 * first. Stale (reordered) notifications are dropped; the iteration ends with
 * DeviceDisconnectedError when the link drops, because the device forgets observers when it reboots.
 */
export async function observe(engine: CoapEngine, options: ObserveOptions): Promise<Observation> {
  const token = engine.allocateToken();
  const queue = new AsyncQueue<CoapResponse>(() => void cancel());
  let lastSequence: number | undefined;
  let lastAt = 0;
  const accept = (message: CoapMessage) => {
    const sequence = observeOf(message);
    const now = performance.now();
    if (sequence !== undefined && lastSequence !== undefined && !isFresher(lastSequence, sequence, now - lastAt))
      return;
    if (sequence !== undefined) {
      lastSequence = sequence;
      lastAt = now;
    }
    queue.push({ code: message.code, message });
    // A notification with an error code ends the observation (RFC 7641 §3.2).
    if (!message.code.startsWith('2.')) stopListening();
  };
  const unlisten = engine.listen(token, accept);
  const offClose = engine.link.onClose((error) => {
    stopListening();
    queue.end(new DeviceDisconnectedError(engine.context(options.step), error));
  });
  const stopListening = () => {
    unlisten();
    offClose();
  };
  let cancelled = false;
  const cancel = async () => {
    if (cancelled) return;
    cancelled = true;
    stopListening();
    queue.end();
    options.signal?.removeEventListener('abort', onAbort);
    if (!registered || !engine.link.isOpen) return;
    await engine
      .request({
        method: CODE.GET,
        path: options.path,
        options: [observeOption(OBSERVE_DEREGISTER)],
        token,
        step: `${options.step} deregistration`,
        acceptErrors: true,
      })
      .catch(() => undefined);
  };
  const onAbort = () => void cancel();
  let registered = false;
  let first: CoapResponse;
  try {
    first = await engine.request({
      method: CODE.GET,
      path: options.path,
      options: [observeOption(OBSERVE_REGISTER)],
      token,
      step: options.step,
      signal: options.signal,
    });
  } catch (error) {
    stopListening();
    throw error;
  }
  registered = observeOf(first.message) !== undefined;
  accept(first.message);
  if (!registered) {
    stopListening();
    queue.end();
  }
  options.signal?.addEventListener('abort', onAbort, { once: true });
  return { first, registered, cancel, [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() };
}
