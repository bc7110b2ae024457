import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The statements one operation runs, counted as the database layer runs them (BEGIN and COMMIT
 * excepted), whichever function issues them: /metrics sums them by route, which gives an
 * operation's SQL per request beside its request count.
 */
export class StatementCount {
  statements = 0;
}

const current = new AsyncLocalStorage<StatementCount>();

/** Runs `work`, counting into `count` every statement it runs. */
export function countingStatements<T>(count: StatementCount, work: () => Promise<T>): Promise<T> {
  return current.run(count, work);
}

/** Called by the database layer for every statement it runs. */
export function countStatement(): void {
  const count = current.getStore();
  if (count) count.statements++;
}
