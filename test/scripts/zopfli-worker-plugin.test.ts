/**
 * scripts/zopfli-worker-plugin.mjs, the plugin both builds use: a bundle made with the options both
 * builds share (coreBundleOptions in scripts/build.mjs, which lists the plugin) runs
 * zopfli on its worker thread from a folder with no node_modules anywhere above it, and requires
 * nothing of @gfx/zopfli at run time. The single executable is run for real in build-cli.test.ts;
 * here the Electron main bundle the suite builds is checked for what it requires.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { build as esbuild, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp } from '../fixtures/built-app';

const root = join(import.meta.dirname, '..', '..');
const ZOPFLI_DEFLATE = join(root, 'main', 'engine', 'cache', 'zopfli-deflate.ts');
const REQUIRES_ZOPFLI = /\brequire\(\s*["']@gfx\/zopfli/;
let away: string;

/** The options both builds bundle the core with (scripts/build.mjs, plain JavaScript, so loaded by its path). */
type CoreBundleOptions = (options: {
  entry: string;
  outfile: string;
  target: string;
  external: string[];
  logLevel: 'error';
}) => BuildOptions;
async function coreBundleOptions(): Promise<CoreBundleOptions> {
  return (
    (await import(pathToFileURL(join(root, 'scripts', 'build.mjs')).href)) as { coreBundleOptions: CoreBundleOptions }
  ).coreBundleOptions;
}

beforeAll(async () => {
  away = await mkdtemp(join(tmpdir(), 'zopfli-worker-bundle-'));
});

afterAll(async () => {
  if (away) await rm(away, { recursive: true, force: true });
});

describe('zopfli worker bundled by the shared plugin', () => {
  it('deflates on its worker thread from a bundle with no node_modules around it', async () => {
    // A probe entry: deflates 3 KB of text-like bytes and prints what it made, base64.
    const entry = join(away, 'probe.ts');
    await writeFile(
      entry,
      [
        `import { zopfliDeflate } from ${JSON.stringify(ZOPFLI_DEFLATE)};`,
        "const source = Buffer.from('ABCD0123'.repeat(384).split('').map((c, i) => (i % 11 === 0 ? 'x' : c)).join(''));",
        'zopfliDeflate(source).then((stream) => console.log(JSON.stringify({ source: source.toString("base64"), stream: Buffer.from(stream!.bytes).toString("base64") })));',
      ].join('\n'),
    );
    const outfile = join(away, 'probe.cjs');
    await esbuild((await coreBundleOptions())({ entry, outfile, target: 'node24', external: [], logLevel: 'error' }));
    await rm(entry);
    expect(await readFile(outfile, 'utf8')).not.toMatch(REQUIRES_ZOPFLI);

    const { stdout } = await promisify(execFile)(process.execPath, [outfile], {
      cwd: away,
      env: { PATH: '/usr/bin:/bin' },
    });
    const made = JSON.parse(stdout) as { source: string; stream: string };
    const source = Buffer.from(made.source, 'base64');
    const stream = Buffer.from(made.stream, 'base64');
    expect(inflateRawSync(stream, { windowBits: 15 }).equals(source)).toBe(true);
    expect(stream.length).toBeLessThan(source.length / 4);
  });

  it('leaves no require of @gfx/zopfli in the Electron main bundle', async () => {
    const main = await readFile(join(await builtApp(), 'main', 'electron.cjs'), 'utf8');
    expect(main).not.toMatch(REQUIRES_ZOPFLI);
    // What the plugin put in its place: zopfli's WebAssembly (base64 of "\0asm") inside the worker's script.
    expect(main).toContain('AGFzbQ');
    expect(main).not.toMatch(/new URL\(\s*["']\.\/zopfli-worker\.ts/);
  });
});
