import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ARROWS } from '../eslint.boundaries.js';
import { importCircles } from './import-circles';

const root = new URL('../', import.meta.url);
const doc = readFileSync(new URL('docs/architecture.md', root), 'utf8');

function drawnArrows(): string[] {
  const mermaid = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  return [...mermaid.matchAll(/^\s*([a-z]+) --> ([a-z]+)\s*$/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
}

function linted(): string[] {
  return Object.entries(ARROWS)
    .flatMap(([from, to]) => to.map((target) => `${from} -> ${target}`))
    .sort();
}

describe('the architecture map', () => {
  it('draws exactly the arrows that lint enforces', () => {
    expect(drawnArrows().length).toBeGreaterThan(0);
    expect(drawnArrows()).toEqual(linted());
  });

  it('lint refuses an import along an arrow that is not drawn', async () => {
    const eslint = new ESLint({ cwd: new URL('.', root).pathname });
    const lint = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath }))[0]?.messages.map((m) => m.ruleId) ?? [];
    // The simulator must not use the host's CoAP engine, nor domain/ the service.
    expect(
      await lint(
        'simulator/probe.ts',
        "import { CoapEngine } from '../main/devices/coap/engine';\nexport const e = CoapEngine;\n",
      ),
    ).toContain('boundaries/dependencies');
    expect(
      await lint('domain/probe.ts', "import { startService } from '../server';\nexport const s = startService;\n"),
    ).toContain('boundaries/dependencies');
    // A re-export and a dynamic import() are imports too: neither opens a way around the map.
    expect(await lint('simulator/probe.ts', "export { CoapEngine } from '../main/devices/coap/engine';\n")).toContain(
      'boundaries/dependencies',
    );
    expect(await lint('simulator/probe.ts', "export * from '../main/devices/coap/engine';\n")).toContain(
      'boundaries/dependencies',
    );
    expect(await lint('domain/probe.ts', "export const load = () => import('../server');\n")).toContain(
      'boundaries/dependencies',
    );
    // Along an arrow it is fine.
    expect(
      await lint('simulator/probe.ts', "import { CODE } from '../protocol/coap';\nexport const c = CODE;\n"),
    ).not.toContain('boundaries/dependencies');
  });

  it('lets a host come into the core by main/core/index.ts only', async () => {
    const eslint = new ESLint({ cwd: new URL('.', root).pathname });
    const refusals = async (filePath: string, code: string) =>
      ((await eslint.lintText(code, { filePath }))[0]?.messages ?? [])
        .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
        .map((m) => m.message);
    // A deep import planted in the CLI, in each of the three rooms behind the door, and in another host.
    const planted = [
      [
        'main/hosts/cli/probe.ts',
        "import { createJobsEngine } from '../../engine/jobs';\nexport const e = createJobsEngine;\n",
      ],
      [
        'main/hosts/cli/commands/probe.ts',
        "import { Station } from '../../../features/station';\nexport const s = Station;\n",
      ],
      [
        'main/hosts/cli/probe.ts',
        "import { openLocalWorkspace } from '../../core/local-workspace';\nexport const o = openLocalWorkspace;\n",
      ],
      [
        'main/hosts/cli/probe.ts',
        "import type { JobsEngine } from '../../engine/jobs/jobs-engine';\nexport type E = JobsEngine;\n",
      ],
      ['main/hosts/cli/probe.ts', "export * from '../../engine/ledger';\n"],
      ['main/hosts/cli/probe.ts', "export const load = () => import('../../engine/jobs');\n"],
      [
        'main/hosts/electron/probe.ts',
        "import { Workbench } from '../../features/workbench/workbench';\nexport const w = Workbench;\n",
      ],
    ];
    for (const [filePath, code] of planted) {
      const found = await refusals(filePath!, code!);
      expect(found, `${filePath}: ${code}`).toHaveLength(1);
      expect(found[0]).toMatch(/main\/core\/index\.ts only/);
    }
    // The front door itself is fine, by file or by folder.
    expect(
      await refusals(
        'main/hosts/cli/probe.ts',
        "import { createCliCore } from '../../core/index';\nexport const c = createCliCore;\n",
      ),
    ).toEqual([]);
    expect(
      await refusals(
        'main/hosts/web/probe.ts',
        "import { createCore } from '../../core';\nexport const c = createCore;\n",
      ),
    ).toEqual([]);
  });

  it('draws no arrow from the hosts to the rooms behind the door', async () => {
    expect(ARROWS.hosts).not.toContain('engine');
    expect(ARROWS.hosts).not.toContain('features');
    // So a deep import into them is refused by the map as well as by the door's rule.
    const eslint = new ESLint({ cwd: new URL('.', root).pathname });
    const rules = (
      await eslint.lintText("export * from '../../engine/ledger';\n", { filePath: 'main/hosts/cli/probe.ts' })
    )[0]?.messages.map((m) => m.ruleId);
    expect(rules).toContain('boundaries/dependencies');
  });

  it('has no circle between the files of main/: each imports only what sits below it', () => {
    expect(importCircles(new URL('.', root).pathname, ['main'])).toEqual([]);
  });

  it('finds a circle when there is one (the check is real)', () => {
    const fixture = new URL('fixtures/import-circle/', import.meta.url).pathname;
    expect(importCircles(fixture, ['.'])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
