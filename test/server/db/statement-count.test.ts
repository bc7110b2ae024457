import { describe, expect, it } from 'vitest';
import { countingStatements, StatementCount } from '../../../server/db/statement-count';
import { noteStatement } from '../../../server/db/tables';

/** SQL per request: each operation's statements are counted into its own request's count. */
describe('statement count', () => {
  it('counts the statements run inside, across awaits, and none run outside', async () => {
    const count = new StatementCount();
    noteStatement('SELECT 1');
    await countingStatements(count, async () => {
      noteStatement('SELECT * FROM devices');
      await new Promise((resolve) => setImmediate(resolve));
      noteStatement('UPDATE devices SET name = $1');
    });
    noteStatement('SELECT 1');
    expect(count.statements).toBe(2);
  });

  it('keeps concurrent requests apart', async () => {
    const [a, b] = [new StatementCount(), new StatementCount()];
    const run = (count: StatementCount, statements: number) =>
      countingStatements(count, async () => {
        for (let i = 0; i < statements; i++) {
          noteStatement('SELECT * FROM configurations');
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
    await Promise.all([run(a, 3), run(b, 5)]);
    expect([a.statements, b.statements]).toEqual([3, 5]);
  });
});
