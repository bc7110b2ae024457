/**
 * Real microcontroller firmware for the link benchmark, from Debian packages: downloaded with
 * `apt-get download` into a cache directory at bench time (never into the repository) and read as
 * the binaries the packages install. Only binary images (.bin, .dfu): Intel hex and ELF carry text
 * and padding that flatter compression, so firmware-microbit-micropython (hex only) is left out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { encodeFirmwareImageHeader } from '../domain/files/firmware-image';

export interface RealImage {
  /** The file's name, e.g. hackrf_one_usb.bin. */
  name: string;
  package: string;
  version: string;
  bytes: Uint8Array;
}

/** Each image: its package and where the package installs it. */
const IMAGES = [
  { package: 'hackrf-firmware', path: 'usr/share/hackrf/hackrf_one_usb.bin' },
  { package: 'hackrf-firmware', path: 'usr/share/hackrf/hackrf_rad1o_usb.bin' },
  { package: 'hackrf-firmware', path: 'usr/share/hackrf/hackrf_jawbreaker_usb.bin' },
  { package: 'ubertooth-firmware', path: 'usr/share/ubertooth/firmware/bluetooth_rxtx.dfu' },
  { package: 'ubertooth-firmware', path: 'usr/share/ubertooth/firmware/bootloader.bin' },
  { package: 'firmware-tomu', path: 'usr/lib/firmware-tomu/toboot-booster.bin' },
  { package: 'crust-firmware', path: 'usr/lib/crust-firmware/generic_a64.bin' },
] as const;

/**
 * A real image large enough that UDP's modelled 1 MB/s, not the fixed cost of an upload (identify,
 * announce, the device's check: each a round trip and a few milliseconds of work on either side),
 * decides its time: the microcontroller images above cross that wire in 6 to 73 ms, a fixed cost of
 * 10 ms or more on this machine. U-Boot for QEMU's arm64 board, 0.97 MB, the size of the image of a
 * device on Ethernet. Sent on UDP only: at 115200 baud it would take 84 s per coding.
 */
const LARGE_IMAGES = [{ package: 'u-boot-qemu', path: 'usr/lib/u-boot/qemu_arm64/u-boot.bin' }] as const;

/**
 * Delta pairs. No registry here holds two releases of one of these firmwares, so each pair is the
 * honest substitute the issue names: two builds of one real firmware that differ in one option
 * (crust: the serial console compiled out) or in the board it targets (HackRF Jawbreaker → One).
 */
const PAIRS = [
  {
    package: 'crust-firmware',
    from: 'usr/lib/crust-firmware/generic_a64.bin',
    to: 'usr/lib/crust-firmware/generic_a64_no-serial.bin',
  },
  {
    package: 'hackrf-firmware',
    from: 'usr/share/hackrf/hackrf_jawbreaker_usb.bin',
    to: 'usr/share/hackrf/hackrf_one_usb.bin',
  },
] as const;

export function benchCacheDir(): string {
  return process.env.PROVISIONER_BENCH_CACHE ?? join(homedir(), '.cache', 'provisioner', 'bench-firmware');
}

/** The package's contents under the cache, downloading and unpacking it the first time. */
function unpacked(cache: string, name: string): { dir: string; version: string } {
  const dir = join(cache, name);
  const deb = readdirSync(cache).find((file) => file.startsWith(`${name}_`) && file.endsWith('.deb'));
  if (deb === undefined) {
    try {
      execFileSync('apt-get', ['download', name], { cwd: cache, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? (error as Error).message;
      throw new Error(
        `Could not download the Debian package ${name} (${stderr}). Run "apt-get update" once, or put ${name}_*.deb into ${cache}.`,
      );
    }
    return unpacked(cache, name);
  }
  if (!existsSync(dir)) execFileSync('dpkg-deb', ['-x', join(cache, deb), dir]);
  const version = execFileSync('dpkg-deb', ['-f', join(cache, deb), 'Version'])
    .toString()
    .trim();
  return { dir, version };
}

function load(cache: string, pkg: string, path: string): RealImage {
  const { dir, version } = unpacked(cache, pkg);
  return { name: path.split('/').at(-1)!, package: pkg, version, bytes: new Uint8Array(readFileSync(join(dir, path))) };
}

export function loadRealImages(): {
  images: RealImage[];
  largeImages: RealImage[];
  pairs: { from: RealImage; to: RealImage }[];
} {
  const cache = benchCacheDir();
  mkdirSync(cache, { recursive: true });
  return {
    images: IMAGES.map((image) => load(cache, image.package, image.path)),
    largeImages: LARGE_IMAGES.map((image) => load(cache, image.package, image.path)),
    pairs: PAIRS.map((pair) => ({
      from: load(cache, pair.package, pair.from),
      to: load(cache, pair.package, pair.to),
    })),
  };
}

/** A real binary behind our 64-byte image header, as the vendor's build would wrap it. */
export function wrap(real: Pick<RealImage, 'bytes'>, deviceType: string, version: string): Uint8Array {
  const image = new Uint8Array(64 + real.bytes.length);
  image.set(encodeFirmwareImageHeader({ deviceType, version, bodyLength: real.bytes.length }));
  image.set(real.bytes, 64);
  return image;
}
