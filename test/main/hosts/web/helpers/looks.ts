/**
 * A wait for what a page or a core shows by itself: a bounded number of looks with a pause between
 * them, never a wall-clock limit. A wait that runs out throws what it last saw and, when given,
 * where things stood, so a failure on a loaded machine says why.
 */
export interface Looks {
  /** How many looks at the most. */
  looks: number;
  pauseMs: number;
  /** Where things stood, added to the error of a wait that ran out. */
  whereThingsStood?: () => Promise<string>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Looks until `ok` holds of what `look` returns; a look that throws counts as one and is said. */
export async function lookUntil<T>(
  what: string,
  look: () => Promise<T>,
  ok: (seen: T) => boolean,
  looks: Looks,
): Promise<T> {
  let last = 'nothing yet';
  for (let i = 0; i < looks.looks; i += 1) {
    try {
      const seen = await look();
      if (ok(seen)) return seen;
      last = JSON.stringify(seen);
    } catch (error) {
      last = `the look failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    await pause(looks.pauseMs);
  }
  const stood = looks.whereThingsStood ? `\n${await looks.whereThingsStood()}` : '';
  throw new Error(`Waited for ${what} ${looks.looks} looks; last seen: ${last}${stood}`);
}
