/**
 * One run of a job at a time: a request while it runs is folded into one more run after it, however
 * many came, so the last request always sees a run that started after it. Used where a list is worked
 * out again on every change (a serial scan round, the workbench's needs).
 */
export class CoalescedRun {
  private running: Promise<void> | undefined;
  private again = false;

  /** `stopped`: once it says true, no further run starts (a pending one is dropped). */
  constructor(
    private readonly run: () => Promise<void>,
    private readonly stopped: () => boolean,
  ) {}

  /** Runs now, or once more after the current run; resolves when that run is over. */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.run();
      } while (this.again && !this.stopped());
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The run under way, if any (a stop waits for it). */
  get current(): Promise<void> | undefined {
    return this.running;
  }
}
