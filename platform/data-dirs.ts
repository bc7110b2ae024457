import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the CLI keeps things. By default the platform's places for a user's settings and data
 * (XDG on Linux); `--data-dir DIR` or PROVISIONER_HOME put everything under one directory instead,
 * which is how tests and scripts keep runs apart.
 */
export interface CliDirs {
  /** credentials.json lives here (0600). */
  config: string;
  /** Firmware cache, outbox, intents, configuration files, the local workspace's database. */
  data: string;
}

export function cliDirs(env: NodeJS.ProcessEnv, dataDirOption: string | undefined, platform: NodeJS.Platform = process.platform): CliDirs {
  const single = dataDirOption ?? env.PROVISIONER_HOME;
  if (single) {
    const root = resolve(single);
    return { config: root, data: join(root, 'data') };
  }
  const home = env.HOME ?? homedir();
  if (platform === 'win32') {
    const appData = env.APPDATA ?? join(home, 'AppData', 'Roaming');
    const local = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
    return { config: join(appData, 'Provisioner'), data: join(local, 'Provisioner') };
  }
  if (platform === 'darwin') {
    const root = join(home, 'Library', 'Application Support', 'Provisioner');
    return { config: root, data: join(root, 'data') };
  }
  return {
    config: join(env.XDG_CONFIG_HOME || join(home, '.config'), 'provisioner'),
    data: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'provisioner'),
  };
}
