import type { SecretStore } from '../../platform/secret-store';

/**
 * The secrets a host holds (the API key) and the last line of defence that keeps them out of
 * everything sent to the page: Electron's renderer over IPC, web mode's browser over its
 * WebSocket. The core is meant never to return a key; this makes a slip (an error message that
 * quotes a request, a log line with a header) harmless instead of a leak.
 */
export const REDACTED = '[redacted]';

/** Shorter strings would match ordinary text; API keys are far longer. */
const MIN_SECRET_LENGTH = 8;

export class KnownSecrets {
  private readonly values = new Set<string>();

  add(secret: string | null | undefined): void {
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) this.values.add(secret);
  }

  /** The key typed on the sign-in screen is a secret from the moment it arrives, remembered or not. */
  noteInvocation(channel: unknown, input: unknown): void {
    if (channel !== 'session.signIn' || typeof input !== 'object' || input === null) return;
    const apiKey = (input as { apiKey?: unknown }).apiKey;
    if (typeof apiKey === 'string') {
      this.add(apiKey);
      this.add(apiKey.trim());
    }
  }

  get size(): number {
    return this.values.size;
  }

  /** A copy of `value` in which no string contains a known secret. Plain data in, plain data out. */
  scrub<T>(value: T): T {
    if (this.values.size === 0) return value;
    return scrubValue(
      value,
      [...this.values].sort((a, b) => b.length - a.length),
      new WeakMap(),
    ) as T;
  }
}

function scrubValue(value: unknown, secrets: readonly string[], seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const secret of secrets) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
    return text;
  }
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(scrubValue(item, secrets, seen));
    return copy;
  }
  if (value instanceof Error) {
    const copy = new Error(scrubValue(value.message, secrets, seen) as string);
    seen.set(value, copy);
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value; // Dates, typed arrays: not text
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, secrets, seen);
  return copy;
}

/**
 * A secret store whose every value, read or written, is withheld from the page from then on: a
 * key remembered from an earlier run is a secret before anyone types it. (Electron's store does
 * this itself.)
 */
export function withholdingSecretStore(store: SecretStore, secrets: KnownSecrets): SecretStore {
  return {
    async get(name) {
      const value = await store.get(name);
      secrets.add(value);
      return value;
    },
    async set(name, value) {
      secrets.add(value);
      await store.set(name, value);
    },
    delete: (name) => store.delete(name),
  };
}
