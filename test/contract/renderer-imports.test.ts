import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** eslint.config.js keeps the contract's values (zod schemas) out of the renderer; its types stay welcome. */
describe('what the renderer may take from the contract', () => {
  const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });
  const rulesHit = async (filePath: string, code: string) =>
    (await eslint.lintText(code, { filePath }))[0]?.messages.map((m) => m.ruleId) ?? [];
  const RULE = '@typescript-eslint/no-restricted-imports';

  it('refuses a value, from the index or from a group module', async () => {
    expect(
      await rulesHit(
        'renderer/probe.ts',
        "import { CONTRACT } from '../contract/index';\nexport const c = CONTRACT;\n",
      ),
    ).toContain(RULE);
    expect(
      await rulesHit(
        'renderer/stores/probe.ts',
        "import { WORKBENCH_CHANNELS } from '../../contract/workbench';\nexport const w = WORKBENCH_CHANNELS;\n",
      ),
    ).toContain(RULE);
    expect(
      await rulesHit(
        'renderer/probe.tsx',
        "import { FINISHED_PHASES, type JobView } from '../contract/index';\nexport const f: readonly JobView['phase'][] = FINISHED_PHASES;\n",
      ),
    ).toContain(RULE);
  });

  it('lets types through, and leaves other folders alone', async () => {
    expect(
      await rulesHit(
        'renderer/probe.ts',
        "import type { JobView } from '../contract/index';\nexport type J = JobView;\n",
      ),
    ).not.toContain(RULE);
    expect(
      await rulesHit(
        'renderer/probe.ts',
        "import { FINISHED_PHASES } from '../domain/jobs';\nexport const f = FINISHED_PHASES;\n",
      ),
    ).not.toContain(RULE);
    expect(
      await rulesHit(
        'preload/probe.ts',
        "import { isChannel } from '../contract/index';\nexport const i = isChannel;\n",
      ),
    ).not.toContain(RULE);
  });
});
