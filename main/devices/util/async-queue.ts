/**
 * A push-driven async iterable: producers push values (or end it, with or without an error);
 * one consumer iterates. Values pushed while nobody waits are buffered.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | undefined;
  private ended = false;
  private error: unknown;
  private hasError = false;

  constructor(private readonly onReturn: () => void = () => undefined) {}

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ value, done: false });
    } else {
      this.buffer.push(value);
    }
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (error !== undefined) {
      this.error = error;
      this.hasError = true;
    }
    if (this.waiting && this.buffer.length === 0) {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (this.hasError) waiting.reject(this.error);
      else waiting.resolve({ value: undefined, done: true });
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
        if (this.ended)
          return this.hasError ? Promise.reject(this.error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = { resolve, reject };
        });
      },
      return: () => {
        this.onReturn();
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
