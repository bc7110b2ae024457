#!/usr/bin/env node
// Renders assets/icon.svg into every icon file the installers name, so the icons are reproducible
// from one source. The outputs are committed: packaging never needs this script, only a change
// of the artwork does. Needs `rsvg-convert` (Debian: apt-get install -y librsvg2-bin).
//
//   assets/icons/NxN.png   Linux (electron-builder takes a folder of sizes for the hicolor theme)
//   assets/icon.png        1024 px, the source electron-builder falls back on
//   assets/icon.ico        Windows: PNG-compressed entries 16..256 (Vista and later read them)
//   assets/icon.icns       macOS: PNG-compressed entries 16..1024 (10.7 and later read them)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const assets = dirname(fileURLToPath(import.meta.url));
const svg = join(assets, 'icon.svg');
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// ICNS element types that hold PNG data, by pixel size (Apple's "icp4".."ic10").
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
];

function render(size) {
  return execFileSync('rsvg-convert', ['-w', String(size), '-h', String(size), svg]);
}

function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry); // 0 means 256
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

function icns(images) {
  const elements = images.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const body = Buffer.concat(elements);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

const rendered = new Map();
const png = (size) => {
  if (!rendered.has(size)) rendered.set(size, render(size));
  return rendered.get(size);
};

mkdirSync(join(assets, 'icons'), { recursive: true });
for (const size of LINUX_SIZES) writeFileSync(join(assets, 'icons', `${size}x${size}.png`), png(size));
writeFileSync(join(assets, 'icon.png'), png(1024));
writeFileSync(join(assets, 'icon.ico'), ico(ICO_SIZES.map((size) => ({ size, png: png(size) }))));
writeFileSync(join(assets, 'icon.icns'), icns(ICNS_TYPES.map(([type, size]) => ({ type, png: png(size) }))));
console.log(`icons written from ${svg} (${readFileSync(svg).length} bytes of SVG)`);
