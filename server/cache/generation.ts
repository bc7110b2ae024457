/**
 * A counter that moves whenever what was read may have changed: a reader takes it before reading
 * (`begin()`) and may keep what it read only while it has not moved (`isCurrent()`). Suspended,
 * nothing is current: while changes cannot be heard, nothing may be kept.
 */
export interface Freshness {
  begin(): number;
  isCurrent(token: number): boolean;
}

export class Generation implements Freshness {
  private value = 0;
  private suspended = false;

  begin(): number {
    return this.value;
  }

  isCurrent(token: number): boolean {
    return token === this.value && !this.suspended;
  }

  advance(): void {
    this.value++;
  }

  suspend(): void {
    this.suspended = true;
    this.value++;
  }

  resume(): void {
    this.suspended = false;
    this.value++;
  }
}
