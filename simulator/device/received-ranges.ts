/**
 * Which bytes of an upload are in. Blocks arrive out of order when several are in flight; the
 * contiguous prefix is what the device acknowledges for resume, the rest waits for the gaps.
 */
export class ReceivedRanges {
  private pending: { start: number; end: number }[] = [];

  constructor(private contiguousEnd = 0) {}

  get contiguous(): number {
    return this.contiguousEnd;
  }

  /** Records [start, end); returns the new contiguous end. */
  add(start: number, end: number): number {
    if (end <= this.contiguousEnd) return this.contiguousEnd;
    if (start <= this.contiguousEnd) {
      this.contiguousEnd = end;
      this.absorb();
    } else {
      this.pending.push({ start, end });
    }
    return this.contiguousEnd;
  }

  has(start: number, end: number): boolean {
    if (end <= this.contiguousEnd) return true;
    return this.pending.some((r) => r.start <= start && r.end >= end);
  }

  private absorb(): void {
    let grown = true;
    while (grown) {
      grown = false;
      this.pending = this.pending.filter((r) => {
        if (r.start > this.contiguousEnd) return true;
        if (r.end > this.contiguousEnd) {
          this.contiguousEnd = r.end;
          grown = true;
        }
        return false;
      });
    }
  }
}
