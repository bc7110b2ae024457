import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { keepCreatedFilesPrivate, prepareDataDirs, resolveDataDirs } from '../../../platform/data-dirs';
import { createCore, embeddedWorkspaceStarter, FileSecretStore } from '../../core';
import { KnownSecrets, withholdingSecretStore } from '../known-secrets';
import { buildRenderer, RENDERER_DIST_DIR, rendererIsCurrent } from './build-renderer';
import { portGlobsFromEnv } from '../../devices/discovery';
import { ptyGlob } from '../../../simulator';
import { startWebServer } from './server';
import {
  benchDevicesFor,
  configFileSigningKey,
  registerWorkbenchDevices,
  simulationPortOf,
  startSimulatedWorkbench,
  trustedReleaseKeys,
  type SimulatedWorkbench,
} from './simulated-workbench';

/**
 * `npm run web`: the renderer in a browser, the core in this process, the contract over a
 * WebSocket on 127.0.0.1 with a token of this run. Without a signed-in account it starts the local
 * workspace (the embedded service with the demo organization); `--simulate` adds a bench of
 * simulated devices on pty links: one free device of each type and every device of the demo flows,
 * or with `--simulate NAME` the devices of that configuration. The Workbench can press their E-stops
 * and add more (the core's simulation channels, served through simulationPortOf). Its data lives in the user's data directory
 * (platform/data-dirs.ts), under `web/`.
 */
keepCreatedFilesPrivate();

const program = new Command()
  .name('provisioner-web')
  .description('Run Provisioner in a browser: the app on 127.0.0.1, the core in this process.')
  .option('-p, --port <port>', 'port on 127.0.0.1 (default: a free one)', (v) => Number.parseInt(v, 10), 0)
  .option(
    '--simulate [configuration]',
    'also start simulated devices on pty links: those of the named configuration of the local workspace, or with no name one free device of each type (SRCP, WESP, EPC, NSCP) and every device of the demo flows',
    false,
  )
  .option(
    '--data-dir <dir>',
    'keep settings, the outbox, the firmware cache and the local workspace under DIR (default: your data directory; env PROVISIONER_HOME)',
  )
  .option('--rebuild', 'build the renderer even when dist/renderer is newer than its sources', false)
  .parse();

const options = program.opts<{ port: number; simulate: boolean | string; dataDir?: string; rebuild: boolean }>();

async function main(): Promise<void> {
  const dirs = resolveDataDirs(process.env, options.dataDir);
  await prepareDataDirs(dirs, {
    cwd: process.cwd(),
    note: (line) => process.stderr.write(`note: ${line}\n`),
    warn: (line) => process.stderr.write(`warning: ${line}\n`),
  });
  const dataDir = dirs.web;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (options.rebuild || !rendererIsCurrent()) {
    process.stderr.write('Building the renderer (none yet, or its sources changed since)…\n');
    await buildRenderer();
  }

  const benchDir = join(dataDir, 'simulated-bench');
  // Every key this process holds stays out of what the browser is sent, as in Electron.
  const secrets = new KnownSecrets();
  const startWorkspace = embeddedWorkspaceStarter(join(dataDir, 'workspace'));
  // Started once the workspace runs (its keys, its configurations); the core asks through this port.
  let bench: SimulatedWorkbench | null = null;
  const core = await createCore({
    dataDir,
    secretStore: withholdingSecretStore(new FileSecretStore(join(dataDir, 'secrets.json')), secrets),
    host: 'web',
    startLocalWorkspace: async () => {
      const workspace = await startWorkspace();
      secrets.add(workspace.apiKey);
      return workspace;
    },
    // With --simulate the bench's ptys appear in the bench's own folder, found by a port glob as USB adapters are.
    ...(options.simulate !== false
      ? {
          deviceList: { serial: { portGlobs: [...portGlobsFromEnv(process.env), ptyGlob(join(benchDir, 'pty'))] } },
          simulation: simulationPortOf(() => bench),
        }
      : {}),
    onLogLine: (line) => {
      if (line.level !== 'debug')
        process.stderr.write(`${line.at.slice(11, 19)} ${line.level.padEnd(5)} ${line.source}: ${line.message}\n`);
    },
  });

  // Web mode always has an account to show; a fallback is not a choice to resume next time.
  if (core.session.current() === null) await core.session.useLocalWorkspace({ remember: false });

  if (options.simulate !== false) {
    const workspace = await core.session.ensureWorkspace();
    const account = core.session.current();
    const client = account?.kind === 'local' ? account.client : null;
    const publicKeyPem = client
      ? (await client.signingKey()).publicKeyPem
      : await configFileSigningKey(workspace.serviceUrl);
    const devices = await benchDevicesFor(client, typeof options.simulate === 'string' ? options.simulate : undefined);
    bench = await startSimulatedWorkbench({
      dir: benchDir,
      publicKeyPem,
      releaseKeysPem: await trustedReleaseKeys(workspace.serviceUrl),
      devices,
    });
    if (client) {
      const registered = await registerWorkbenchDevices(client, bench.serialNumbers);
      if (registered.length > 0)
        core.log.info('web', `Registered the bench devices ${registered.join(', ')} in the local workspace.`);
    }
    core.log.info('web', `Simulated bench: ${bench.serialNumbers.join(', ')} on pty links.`);
  }

  const server = await startWebServer({
    core,
    rendererDir: RENDERER_DIST_DIR,
    port: options.port,
    secrets,
    log: (m) => core.log.warn('web', m),
  });
  process.stdout.write(
    `\nProvisioner is running in web mode. Open this address in a browser on this computer:\n\n  ${server.openUrl}\n\n(The address carries a token for this run only. Ctrl+C stops.)\n`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write('Stopping…\n');
    await server.close().catch(() => undefined);
    await core.close().catch(() => undefined);
    await bench?.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`Provisioner web mode could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
