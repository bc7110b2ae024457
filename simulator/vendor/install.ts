import { rm } from 'node:fs/promises';
import { simulatedImageVersion } from '../../domain/vendor/simulated-image';
import { FRC_FILE } from '../../protocol/vendor';
import type { DeviceFaults } from '../faults';
import type { VendorStateStore } from './state';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The FRC's component files: staged by the fs transfer, installed at the next start. */
export const FRC_COMPONENT_FILES: readonly string[] = [
  FRC_FILE.appImage,
  FRC_FILE.bleRadioImage,
  FRC_FILE.ismRadioImage,
  FRC_FILE.smcuReadOnly,
  FRC_FILE.smcuFileSystem,
  FRC_FILE.smcuOptionBytes,
  FRC_FILE.smcuSettings,
];

/**
 * At start, an FRC installs each component file whose computed length and CRC-32 match what the
 * host declared in fs/metadata (a file that does not match stays, uninstalled, for the host to see
 * in ?computed). The application image sets the version it runs (domain/vendor/simulated-image.ts).
 * The power-cut fault strikes halfway: nothing is installed, the files stay for the next start.
 */
export async function installStagedComponents(
  store: VendorStateStore,
  faults: DeviceFaults,
  applyMs: number,
): Promise<'done' | 'power-lost'> {
  const staged = FRC_COMPONENT_FILES.filter((name) => {
    const file = store.current.files[name];
    return (
      file !== undefined &&
      file.declared !== null &&
      file.declared.length === file.length &&
      file.declared.crc32 === file.crc32
    );
  });
  if (staged.length === 0) return 'done';
  if (faults.takePowerCycleDuringApply()) {
    await sleep(applyMs / 2);
    return 'power-lost';
  }
  await sleep(applyMs);
  for (const name of staged) {
    const data = await store.readFile(name);
    if (data === undefined) continue;
    // Installed and the staged copy let go in one write: reported only once it is kept.
    await store.commit((next) => {
      if (name === FRC_FILE.appImage) next.firmwareVersion = simulatedImageVersion(data) ?? next.firmwareVersion;
      next.installed[name] = next.files[name]!.crc32.toString(16).padStart(8, '0');
      next.installs++;
      delete next.files[name];
    });
    await rm(store.filePath(name), { force: true });
  }
  await store.save();
  return 'done';
}
