/**
 * The installer configuration, checked as far as a machine without Electron's downloads can:
 * electron-builder loads electron-builder.yml and validates it with its own JSON schema
 * (app-builder-lib/scheme.json), every file it names exists, and the Linux udev rule and
 * package scripts say what they must.
 */
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { USB_PRODUCT_ID, USB_VENDOR_ID } from '../../../../protocol/constants';

const root = join(import.meta.dirname, '..', '..', '..', '..');
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(root, join(root, 'electron-builder.yml'), null);
});

const text = (path: string) => readFileSync(join(root, path), 'utf8');

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('would be caught by that validation if it were wrong (the check is real)', async () => {
    const broken = { ...config, linux: { ...config.linux, udevRules: 'x' } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object/);
  });

  it('names the product and packs the built app, with native modules outside the asar', () => {
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Provisioner');
    // electron-builder normalises `files` into file sets with a filter
    const files = (config.files as Array<string | { filter?: string[] }>).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : (entry.filter ?? []),
    );
    expect(files).toEqual(
      expect.arrayContaining(['dist/main/**', 'dist/preload/**', 'dist/renderer/**', 'package.json']),
    );
    const unpacked = (config.asarUnpack as string[]).join('\n');
    for (const module of [
      '*.node',
      '@serialport/bindings-cpp',
      '@abandonware/bluetooth-hci-socket',
      'usb',
      'cbor-extract',
      '@electric-sql/pglite/dist/*.wasm',
      '@electric-sql/pglite/dist/*.data',
    ]) {
      expect(unpacked, module).toContain(module);
    }
  });

  it('matches package.json: its main is inside the packed files', () => {
    const pkg = JSON.parse(text('package.json')) as { main: string };
    expect(pkg.main).toBe('dist/main/electron.cjs');
  });

  it('builds the app from source before packing it (`npm run dist` is electron-builder alone)', async () => {
    expect(config.beforeBuild).toBe('./scripts/build.mjs');
    const hooks = (await import(join(root, 'scripts', 'build.mjs'))) as { beforeBuild?: unknown };
    expect(typeof hooks.beforeBuild).toBe('function');
  });

  it('builds AppImage and deb, nsis, and dmg', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac?.target).toEqual(['dmg']);
  });

  it('names only files that exist', () => {
    const named = [
      config.linux?.icon,
      config.win?.icon,
      config.mac?.icon,
      config.mac?.entitlements,
      config.mac?.entitlementsInherit,
      config.deb?.afterInstall,
      config.deb?.afterRemove,
      ...((config.linux?.extraResources ?? []) as Array<{ from: string }>).map((entry) => entry.from),
    ];
    for (const path of named) {
      expect(path, 'a path the configuration names').toBeTypeOf('string');
      expect(existsSync(join(root, path as string)), path as string).toBe(true);
    }
    expect(existsSync(join(root, config.directories?.buildResources ?? 'build'))).toBe(true);
  });

  it('turns off the Electron fuses an attacker could use', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('asks macOS for Bluetooth with a reason, under the hardened runtime', () => {
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.extendInfo).toMatchObject({
      NSBluetoothAlwaysUsageDescription: expect.stringMatching(/Bluetooth/),
    });
    const entitlements = text(config.mac?.entitlements as string);
    expect(entitlements).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
    expect(entitlements).toMatch(/<key>com\.apple\.security\.device\.bluetooth<\/key>\s*<true\/>/);
  });

  it('keeps the deb dependencies electron-builder would add, plus udev', () => {
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libsecret-1-0', 'udev']));
  });
});

describe('Linux udev rule and package scripts', () => {
  const rules = text('assets/linux/60-provisioner.rules');
  const ruleLines = rules.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
  const deviceRules = ruleLines.filter((line) => line.includes('idProduct'));

  it("matches the vendor's USB vendor and product ids, both, for the USB device and its tty", () => {
    const hex = (id: number) => id.toString(16).padStart(4, '0');
    expect(deviceRules.length).toBe(2);
    expect(deviceRules.some((line) => line.includes('SUBSYSTEM=="usb"'))).toBe(true);
    expect(deviceRules.some((line) => line.includes('SUBSYSTEM=="tty"'))).toBe(true);
    for (const line of deviceRules) {
      expect(line).toContain(`ATTRS{idProduct}=="${hex(USB_PRODUCT_ID)}"`);
      // A rogue gadget claiming product 0xD101 under another vendor id gets nothing.
      expect(line).toContain(`ATTRS{idVendor}=="${hex(USB_VENDOR_ID)}"`);
    }
  });

  it('grants the plugdev group read and write, and tells ModemManager to keep away', () => {
    for (const line of deviceRules) {
      expect(line).toContain('MODE="0660"');
      expect(line).toContain('GROUP="plugdev"');
      expect(line).toContain('ENV{ID_MM_DEVICE_IGNORE}="1"');
    }
  });

  it('is well formed: every key is KEY==value, KEY=value or KEY+=value with a quoted value', () => {
    for (const line of ruleLines) {
      if (line.startsWith('LABEL=')) continue;
      for (const pair of line.split(/,\s*/))
        expect(pair.trim(), line).toMatch(/^[A-Z_]+(\{[A-Za-z_]+\})?(==|!=|=|\+=)"[^"]*"$/);
    }
    const gotos = [...rules.matchAll(/GOTO="([^"]+)"/g)].map((m) => m[1]);
    for (const label of gotos) expect(rules).toContain(`LABEL="${label}"`);
  });

  it('is numbered before ModemManager’s own rules (77-mm-*, 80-mm-candidate)', () => {
    expect(Number('60-provisioner.rules'.slice(0, 2))).toBeLessThan(77);
  });

  it('is installed by the after-install script into /lib/udev/rules.d, and udev reloaded', () => {
    const script = text('assets/linux/after-install.sh');
    expect(script).toContain("UDEV_RULE_SOURCE='/opt/${sanitizedProductName}/resources/linux/60-provisioner.rules'");
    expect(script).toContain("UDEV_RULE_TARGET='/lib/udev/rules.d/60-provisioner.rules'");
    expect(script).toMatch(/install -D -m 0644 "\$UDEV_RULE_SOURCE" "\$UDEV_RULE_TARGET"/);
    expect(script).toContain('udevadm control --reload-rules');
    expect(script).toContain('udevadm trigger');
    // the rule reaches resources/linux/ through extraResources
    expect(config.linux?.extraResources).toEqual([
      { from: 'assets/linux/60-provisioner.rules', to: 'linux/60-provisioner.rules' },
    ]);
  });

  it('keeps what electron-builder’s own after-install did (its script is replaced, not extended)', () => {
    const script = text('assets/linux/after-install.sh');
    expect(script).toContain("chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox'");
    expect(script).toContain("update-alternatives --install '/usr/bin/${executable}'");
    expect(script).toContain('apparmor_parser --replace');
  });

  it('removes the rule again on uninstall', () => {
    const script = text('assets/linux/after-remove.sh');
    expect(script).toContain('rm -f "$UDEV_RULE_TARGET"');
    expect(script).toContain("UDEV_RULE_TARGET='/lib/udev/rules.d/60-provisioner.rules'");
  });

  it('uses only the ${...} macros electron-builder defines (any other aborts the build)', () => {
    for (const file of ['assets/linux/after-install.sh', 'assets/linux/after-remove.sh']) {
      const macros = new Set([...text(file).matchAll(/\$\{([a-zA-Z]+)\}/g)].map((m) => m[1]));
      expect(
        [...macros].filter(
          (name) => !['executable', 'sanitizedProductName', 'productFilename'].includes(name as string),
        ),
        file,
      ).toEqual([]);
      if (process.platform !== 'win32')
        expect(statSync(join(root, file)).mode & 0o111, `${file} executable`).not.toBe(0);
    }
  });
});

describe('icons', () => {
  it('has a PNG of every size for Linux, each the size its name says', () => {
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(readFileSync(join(root, 'assets', 'icons', `${size}x${size}.png`))), `${size}`).toEqual([
        size,
        size,
      ]);
    }
    expect(pngSize(readFileSync(join(root, 'assets', 'icon.png')))).toEqual([1024, 1024]);
  });

  it('has a Windows .ico with a 256 px entry and a macOS .icns with a 1024 px entry', () => {
    const ico = readFileSync(join(root, 'assets', 'icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const entries = ico.readUInt16LE(4);
    const widths = Array.from({ length: entries }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(widths).toContain(256);
    const icns = readFileSync(join(root, 'assets', 'icon.icns'));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true);
  });
});
