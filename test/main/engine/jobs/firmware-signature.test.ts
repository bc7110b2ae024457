import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle, SIGNED_MANIFEST_FILE } from '../../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { generateReleaseKeyPair } from '../../../../domain/files/firmware-release-key';
import { logInCli, registerDevices, results, worldPerTest } from './helpers/world';

/**
 * Signed firmware end to end through the real CLI over a pty: the service's firmware, signed with
 * its default release key, installs and the result names who signed it; a bundle no trusted key
 * signed is refused by the host before the device is touched, `--force` or not.
 */

const startWorld = worldPerTest();

describe('signed firmware through the CLI', () => {
  it(
    "installs the service's signed firmware and names its signer; refuses unsigned and untrusted bundles before the device is touched",
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('signed-firmware');
      await registerDevices(w, ['EPC000101']);
      await logInCli(w);
      // What a simulated device is given with --release-key-pub: the keys the service trusts.
      const keys = await w.cli(['release-keys']);
      expect(keys.stdout).toBe(w.releaseKey.publicKeyPem);
      const device = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        releaseKeysPem: [keys.stdout],
      });

      const update = await w.cli(['--json', 'device', 'firmware', 'update', 'EPC000101']);
      expect(update.code, update.stderr).toBe(0);
      const [installed] = results(update);
      expect(installed?.job).toMatchObject({
        serialNumber: 'EPC000101',
        phase: 'done',
        outcome: 'applied',
        firmwareVersion: '1.1.0',
        firmwareSigner: { keyId: w.releaseKey.keyId, name: 'default release key' },
      });
      // The device checked the same signature, and raised its anti-rollback floor to the image's counter.
      expect(device.state()).toMatchObject({ firmwareVersion: '1.1.0', securityCounter: 1, upload: null });

      const attacker = generateReleaseKeyPair();
      const evil = buildFirmwareBundle({
        deviceType: 'EPC',
        version: '6.6.6-evil',
        image: makeFirmwareImage('EPC', '6.6.6-evil', 4096),
        releaseKeyPem: attacker.privateKeyPem,
      });
      const untrustedFile = join(w.root, 'evil-untrusted.zip');
      await writeFile(untrustedFile, evil);
      const { [SIGNED_MANIFEST_FILE]: _signature, ...unsigned } = unzipSync(evil);
      const unsignedFile = join(w.root, 'evil-unsigned.zip');
      await writeFile(unsignedFile, zipSync(unsigned));

      for (const [file, code] of [
        [untrustedFile, 'FW_UNTRUSTED_KEY'],
        [unsignedFile, 'FW_UNSIGNED'],
      ] as const) {
        const bootId = device.state().bootId;
        const refused = await w.cli(['--json', 'device', 'firmware', 'apply', 'EPC000101', '--file', file, '--force']);
        expect(refused.code, file).not.toBe(0);
        expect(results(refused)[0]?.job, file).toMatchObject({
          phase: 'failed',
          errorCode: code,
          confirmation: 'none',
        });
        // Refused on the host: nothing announced, nothing staged, no reboot, the old image runs.
        expect(device.state(), file).toMatchObject({ firmwareVersion: '1.1.0', upload: null, bootId });
      }
    },
  );
});
