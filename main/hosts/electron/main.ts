/**
 * The Electron main process entry (bundled to dist/main/electron.cjs, package.json "main"): the
 * shell of main/electron around the core of main/core, with the core's data in userData.
 */
import { app, dialog } from 'electron';
import { join } from 'node:path';
import { createCore, embeddedWorkspaceStarter } from '../../core';
import { startShell } from './shell';

startShell({
  createCore: ({ userDataDir, secretStore, withholdSecret }) => {
    const dataDir = join(userDataDir, 'data');
    const startWorkspace = embeddedWorkspaceStarter(join(dataDir, 'workspace'));
    return createCore({
      dataDir,
      secretStore,
      host: 'electron',
      appVersion: app.getVersion(),
      // The local workspace's generated admin key stays in main like any other key.
      startLocalWorkspace: async () => {
        const workspace = await startWorkspace();
        withholdSecret(workspace.apiKey);
        return workspace;
      },
      // In development the core's log also goes to the terminal that ran `npm start`.
      onLogLine: app.isPackaged
        ? undefined
        : (line) =>
            process.stderr.write(`${line.at.slice(11, 19)} ${line.level.padEnd(5)} ${line.source}: ${line.message}\n`),
    });
  },
}).catch((err: unknown) => {
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(message);
  dialog.showErrorBox('Provisioner could not start', message);
  app.exit(1);
});
