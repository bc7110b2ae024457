#!/usr/bin/env node
// `npm run dist:linux`: Debian packages for the people who install software for a living, made with
// Debian's own tools (dpkg-deb; lintian checks them when it is installed, and any error fails the
// build).
//
//   node scripts/dist-linux.mjs [--out DIR] [--compression xz|gzip]     into dist/linux/ (or DIR)
//
//   provisioner_VERSION_ARCH.deb           the CLI's single executable (scripts/build-cli.mjs) in
//                                          /usr/lib/provisioner with its lib/, /usr/bin/provisioner,
//                                          a man page and bash and zsh completion made from the
//                                          CLI's command tree (scripts/cli-reference.ts)
//   provisioner-service_VERSION_ARCH.deb   the service's single executable (scripts/build-service.mjs)
//                                          in /usr/lib/provisioner-service, /usr/sbin/provisioner-service,
//                                          its man page, a systemd unit, the system user
//                                          provisioner-service, /etc/provisioner-service/service.env
//                                          and the data directory /var/lib/provisioner-service (0700)
//
// The packages are for the machine's own architecture: the executables embed the Node that runs
// this script (Node 24) and the add-ons installed in node_modules. What goes where, and why:
// docs/decisions.md, "Debian packages".
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tsImport } from 'tsx/esm/api';
import { buildCli } from './build-cli.mjs';
import { buildService } from './build-service.mjs';
import { SERVICE_HEAP_FLAGS } from './service-heap.mjs';

const root = join(import.meta.dirname, '..');
const DEFAULT_OUT_DIR = join(root, 'dist', 'linux');
const SERVICE_USER = 'provisioner-service';

/** Debian's name for this machine's architecture. */
const DEBIAN_ARCH = { x64: 'amd64', arm64: 'arm64' }[process.arch];

/** The maintainer the desktop app's deb names (electron-builder.yml), so both packages say the same. */
function maintainer() {
  const match = /^\s*maintainer:\s*(.+?)\s*$/m.exec(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  if (!match)
    throw new Error('electron-builder.yml names no linux.maintainer; the Debian packages take theirs from it.');
  return match[1];
}

/**
 * The build's time, for the man page date and the changelog: SOURCE_DATE_EPOCH when set (the
 * reproducible-builds convention), else the last commit's, so a rebuild of one commit says the same.
 */
function buildTime() {
  if (process.env.SOURCE_DATE_EPOCH) return new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000);
  const committed = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' });
  return committed.status === 0 && committed.stdout.trim()
    ? new Date(Number(committed.stdout.trim()) * 1000)
    : new Date();
}

function commit() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return head.status === 0 ? head.stdout.trim() : 'unknown';
}

function write(file, text, mode = 0o644) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
}

/** gzip at the highest level with no name or time in the header, as Debian wants man pages and changelogs. */
function writeGzipped(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, gzipSync(text, { level: 9 }));
  chmodSync(file, 0o644);
}

/** A relative symbolic link (Debian policy 10.5: within /usr, links are relative). */
function link(stage, from, to) {
  mkdirSync(dirname(join(stage, from)), { recursive: true });
  symlinkSync(relative(dirname(`/${from}`), `/${to}`), join(stage, from));
}

/**
 * Debian's modes: directories 0755, programs 0755, other files 0644 (add-ons are shared objects,
 * loaded, not run), whatever the files had in node_modules. Add-ons lose their symbol tables, as
 * Debian strips every packaged binary.
 */
function normalizeModes(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      chmodSync(path, 0o755);
      normalizeModes(path);
    } else if (/\.(node|so(\.\d+)*)$/.test(entry.name) && isElf(path)) {
      const stripped = spawnSync('strip', ['--strip-unneeded', path], { encoding: 'utf8' });
      if (stripped.status !== 0) throw new Error(`strip ${path} failed: ${stripped.stderr || stripped.error?.message}`);
      chmodSync(path, 0o644);
    } else {
      chmodSync(path, isElf(path) || readFileSync(path).subarray(0, 2).toString('latin1') === '#!' ? 0o755 : 0o644);
    }
  }
}

function isElf(path) {
  return readFileSync(path)
    .subarray(0, 4)
    .equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
}

/** Every regular file under dir, as paths from dir. */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return filesUnder(dir, path);
    return entry.isFile() ? [path] : [];
  });
}

function md5sums(stage) {
  return filesUnder(stage)
    .filter((path) => !path.startsWith('DEBIAN/') && !path.startsWith('etc/'))
    .sort()
    .map(
      (path) =>
        `${createHash('md5')
          .update(readFileSync(join(stage, path)))
          .digest('hex')}  ${path}\n`,
    )
    .join('');
}

/** Installed-Size: the files' sizes in KiB, as dpkg-gencontrol counts them (each file rounded up). */
function installedSize(stage) {
  let kib = 0;
  for (const path of filesUnder(stage))
    if (!path.startsWith('DEBIAN/')) kib += Math.ceil(lstatSync(join(stage, path)).size / 1024);
  return kib;
}

/** The control file; `fields` in Debian's order after Package and Version. */
function control(stage, fields) {
  const lines = Object.entries({ ...fields, 'Installed-Size': String(installedSize(stage)) }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The C library the package's binaries need: the newest GLIBC_ symbol version any of them uses
 * (Node 24 itself: 2.28; an add-on compiled on the build machine may need that machine's).
 */
function libcNeeded(stage) {
  let newest = [2, 28];
  for (const path of filesUnder(stage)) {
    const file = join(stage, path);
    if (path.startsWith('DEBIAN/') || !isElf(file)) continue;
    const symbols = spawnSync('objdump', ['-T', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout ?? '';
    for (const [, major, minor] of symbols.matchAll(/\bGLIBC_(\d+)\.(\d+)/g)) {
      const version = [Number(major), Number(minor)];
      if (version[0] > newest[0] || (version[0] === newest[0] && version[1] > newest[1])) newest = version;
    }
  }
  return newest.join('.');
}

/** Depends of a package whose binaries are Node's and its add-ons' (libstdc++ of GCC 5: GLIBCXX_3.4.21). */
function binaryDepends(stage) {
  return `libc6 (>= ${libcNeeded(stage)}), libgcc-s1 | libgcc1, libstdc++6 (>= 5)`;
}

/** A Description field: the synopsis, then the paragraphs wrapped at 72 columns, " ." between them. */
function description(synopsis, paragraphs) {
  const wrapped = paragraphs.map((text) => {
    const lines = [];
    let line = '';
    for (const word of text.split(/\s+/)) {
      if (line && line.length + 1 + word.length > 72) {
        lines.push(` ${line}`);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    return [...lines, ` ${line}`].join('\n');
  });
  return [synopsis, wrapped.join('\n .\n')].join('\n');
}

/** A native package's changelog (Debian's format): one entry for this build. */
function changelog(name, { version, time }) {
  return `${name} (${version}) unstable; urgency=medium

  * Built by npm run dist:linux from commit ${commit()}.

 -- ${maintainer()}  ${time.toUTCString().replace('GMT', '+0000')}
`;
}

/** The license of each package the executable carries, from its package.json. */
function licenseOf(name) {
  const file = join(root, 'node_modules', name, 'package.json');
  const license = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).license : undefined;
  return typeof license === 'string' ? license : 'see its package';
}

/** Licenses whose text Debian keeps in /usr/share/common-licenses (base-files), by their SPDX names. */
const COMMON_LICENSES = ['Apache-2.0', 'CC0-1.0', 'GPL-2.0', 'GPL-3.0', 'LGPL-2.1', 'LGPL-3.0', 'MPL-2.0'];

function copyright(name, built, time) {
  const carried = [...new Set([...built.bundled, ...built.besideBinary])].sort();
  const licenses = carried.map((pkg) => ({ pkg, license: licenseOf(pkg) }));
  const common = COMMON_LICENSES.filter((license) => licenses.some((entry) => entry.license.includes(license)));
  return `${name}

Copyright (C) ${time.getUTCFullYear()} Provisioner contributors.
License: proprietary (UNLICENSED in package.json): no rights are granted beyond those of the
agreement under which you received this package.

/usr/lib/${name}/${name} is a Node.js ${process.version} executable (MIT license and the licenses
of the libraries Node.js includes: https://github.com/nodejs/node/blob/main/LICENSE) with the
program and these npm packages inside it or beside it in /usr/lib/${name}/lib, where each
package's own license file is kept:

${licenses.map(({ pkg, license }) => ` ${pkg.replace(/\/node_modules\//g, ' > ')}: ${license}`).join('\n')}
${common.length > 0 ? `\nThe full texts of ${common.join(', ')}: ${common.map((license) => `/usr/share/common-licenses/${license}`).join(', ')}.\n` : ''}`;
}

/**
 * Lintian's tags that the packages raise by what they are, each with why it does not apply. `addons`
 * are the prebuilt add-ons under the package with the tag each raises for the libraries it does
 * not name (addonTags).
 */
function lintianOverrides(name, addons) {
  const executable = `usr/lib/${name}/${name}`;
  return `# The executable is a copy of the official Node.js binary (stripped, the program injected). Node
# links its own zlib (Chromium's, with SIMD and API additions Debian's lacks) and is linked as a
# position-dependent executable; rebuilding Node to change either is not ours to do.
${name}: embedded-library zlib [${executable}]
${name}: hardening-no-pie [${executable}]
${
  addons.length === 0
    ? ''
    : `# Prebuilt add-ons from npm, loaded only into Node: they reach the C library and Node's own
# functions through the process that loads them, not through libraries they name.
${addons.map(({ path, tag }) => `${name}: ${tag} [${path}]`).join('\n')}
`
}`;
}

/**
 * The add-ons under dir that name no libc.so among the libraries they need, with lintian's tag for
 * that: shared-library-lacks-prerequisites when they name none at all.
 */
function addonTags(dir) {
  return filesUnder(dir)
    .filter((path) => path.endsWith('.node'))
    .flatMap((path) => {
      const dynamic = spawnSync('readelf', ['--dynamic', join(dir, path)], { encoding: 'utf8' });
      if (dynamic.status !== 0 || /\(NEEDED\)\s+Shared library: \[libc\.so/.test(dynamic.stdout)) return [];
      return [
        {
          path,
          tag: /\(NEEDED\)/.test(dynamic.stdout)
            ? 'library-not-linked-against-libc'
            : 'shared-library-lacks-prerequisites',
        },
      ];
    });
}

// -------------------------------------------------------------------------------------------------

/** The CLI's reference pages made from its commander tree (build time: tsx loads the sources). */
async function references() {
  const { manPage, bashCompletion, zshCompletion } = await tsImport('./cli-reference.ts', import.meta.url);
  const cli = await tsImport('../main/hosts/cli/program.ts', import.meta.url);
  const service = await tsImport('../server/cli/program.ts', import.meta.url);
  const sink = { write: () => true };
  const cliProgram = cli.buildProgram(async () => undefined, { stdout: sink, stderr: sink });
  const serviceProgram = service.buildProgram({
    out: () => undefined,
    err: () => undefined,
    waitForStop: () => new Promise(() => undefined),
  });
  return {
    cliMan: (options) => manPage(cliProgram, { ...options, seeAlso: [`${SERVICE_USER}(8)`] }),
    serviceMan: (options) =>
      manPage(serviceProgram, { ...options, section: '8', seeAlso: ['provisioner(1)', 'systemd.exec(5)'] }),
    bash: bashCompletion(cliProgram),
    zsh: zshCompletion(cliProgram),
  };
}

async function stageCli(stage, context) {
  const built = await buildCli({ outDir: join(stage, 'usr/lib/provisioner'), quiet: true, strip: true });
  link(stage, 'usr/bin/provisioner', 'usr/lib/provisioner/provisioner');
  writeGzipped(join(stage, 'usr/share/man/man1/provisioner.1.gz'), context.references.cliMan(context.page));
  write(join(stage, 'usr/share/bash-completion/completions/provisioner'), context.references.bash);
  write(join(stage, 'usr/share/zsh/vendor-completions/_provisioner'), context.references.zsh);
  write(join(stage, 'usr/share/doc/provisioner/copyright'), copyright('provisioner', built, context.time));
  writeGzipped(join(stage, 'usr/share/doc/provisioner/changelog.gz'), changelog('provisioner', context));
  write(join(stage, 'usr/share/lintian/overrides/provisioner'), lintianOverrides('provisioner', addonTags(stage)));
  normalizeModes(stage);
  write(join(stage, 'DEBIAN/md5sums'), md5sums(stage));
  write(
    join(stage, 'DEBIAN/control'),
    control(stage, {
      Package: 'provisioner',
      Version: context.version,
      Architecture: DEBIAN_ARCH,
      Maintainer: maintainer(),
      Depends: binaryDepends(stage),
      // A commissioning report in Chinese embeds a subset of this font (docs/i18n.md, "Reports").
      Recommends: 'fonts-droid-fallback',
      Suggests: SERVICE_USER,
      Section: 'utils',
      Priority: 'optional',
      Description: description('provision networked safety devices from the command line', [
        'Provisioner puts firmware and configuration files from the Device Configuration and Management Service onto SRCP, WESP, EPC and NSCP devices over USB serial, IP or BLE, confirms each apply to the service, and works without network from its firmware cache and confirmation outbox. Station mode provisions every device of a configuration as it is plugged in.',
        'A single executable with Node.js inside; no Node.js installation is needed.',
      ]),
    }),
  );
}

/** The env file the unit reads: what an administrator sets, none of it on a command line. */
const SERVICE_ENV = `# /etc/provisioner-service/service.env: the settings of provisioner-service.service (read by
# systemd, mode 0600, root's). After a change: systemctl restart provisioner-service
# Every setting: man 8 provisioner-service; the runbook: docs/operations.md.

# Where the service listens. Behind a load balancer on another machine: PROVISIONER_HOST=0.0.0.0
PROVISIONER_HOST=127.0.0.1
PROVISIONER_PORT=8080

# The embedded database (PGlite), one instance on this machine: its data directory.
PROVISIONER_SERVICE_DATA=/var/lib/provisioner-service/data

# PostgreSQL instead (several instances behind a load balancer): the connection string without a
# password, the password in a file only the service's user can read, and the sealing key that
# keeps the database's secrets unreadable in a copy of it, the same on every instance:
#   install -m 600 -o provisioner-service -g provisioner-service /dev/null /etc/provisioner-service/database-password
#   (then write the password into it), and
#   (umask 077; openssl rand -base64 32 > /etc/provisioner-service/sealing-key); chown provisioner-service: /etc/provisioner-service/sealing-key
#DATABASE_URL=postgres://provisioner@db.internal:5432/provisioner
#PROVISIONER_DATABASE_PASSWORD_FILE=/etc/provisioner-service/database-password
#PROVISIONER_SEALING_KEY_FILE=/etc/provisioner-service/sealing-key

# Load balancers whose X-Forwarded-For names the client in the logs (addresses or CIDR ranges).
#PROVISIONER_TRUSTED_PROXIES=10.0.0.5
# Lets a scraper on another machine read GET /metrics with Authorization: Bearer <token>.
#PROVISIONER_METRICS_TOKEN=

# The unit starts the service with a bounded heap (NODE_OPTIONS=${SERVICE_HEAP_FLAGS.join(' ')}).
# A NODE_OPTIONS set here replaces the unit's whole: keep both flags in it, with the sizes you want.
#NODE_OPTIONS=${SERVICE_HEAP_FLAGS.join(' ')}
`;

/**
 * The unit. ExecStart is the single executable itself (no npm, no tsx, no shell), so SIGTERM
 * reaches the service directly; host and port come from the env file through systemd's ${}
 * expansion, the database settings as environment variables the program reads. NODE_OPTIONS gives
 * the service its bounded heap (scripts/service-heap.mjs); the env file, read after it, wins.
 */
const SERVICE_UNIT = `[Unit]
Description=Provisioner service (Device Configuration and Management Service)
Documentation=man:provisioner-service(8)
After=network-online.target postgresql.service
Wants=network-online.target

[Service]
Type=exec
User=${SERVICE_USER}
Group=${SERVICE_USER}
Environment="NODE_OPTIONS=${SERVICE_HEAP_FLAGS.join(' ')}"
EnvironmentFile=/etc/provisioner-service/service.env
WorkingDirectory=/var/lib/provisioner-service
ExecStart=/usr/sbin/provisioner-service serve --host \${PROVISIONER_HOST} --port \${PROVISIONER_PORT}
Restart=on-failure
TimeoutStopSec=30
UMask=0077
NoNewPrivileges=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectSystem=strict
ProtectHome=yes
ReadWritePaths=/var/lib/provisioner-service
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictSUIDSGID=yes
LockPersonality=yes

[Install]
WantedBy=multi-user.target
`;

/** postinst: the system user and the data directory; then the unit enabled and (re)started, as dh_installsystemd does. */
const POSTINST = `#!/bin/sh
set -e

if [ "$1" = configure ]; then
    if ! getent passwd ${SERVICE_USER} >/dev/null; then
        adduser --system --group --quiet --home /var/lib/provisioner-service --no-create-home \\
            --gecos "Provisioner service" ${SERVICE_USER}
    fi
    # Sealed keys and the signing keys live here: the service's user only.
    install -d -m 0700 -o ${SERVICE_USER} -g ${SERVICE_USER} /var/lib/provisioner-service
    chown ${SERVICE_USER}:${SERVICE_USER} /var/lib/provisioner-service
    chmod 0700 /var/lib/provisioner-service
fi

if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    deb-systemd-helper unmask provisioner-service.service >/dev/null || true
    if deb-systemd-helper --quiet was-enabled provisioner-service.service; then
        deb-systemd-helper enable provisioner-service.service >/dev/null || true
    else
        deb-systemd-helper update-state provisioner-service.service >/dev/null || true
    fi
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        if [ -n "$2" ]; then
            deb-systemd-invoke try-restart provisioner-service.service >/dev/null || true
        else
            deb-systemd-invoke start provisioner-service.service >/dev/null || true
        fi
    fi
fi
`;

const PRERM = `#!/bin/sh
set -e

if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    deb-systemd-invoke stop provisioner-service.service >/dev/null || true
fi
`;

/** postrm purge: what postinst and the service made, so that nothing of the package is left. */
const POSTRM = `#!/bin/sh
set -e

if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
fi

if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper mask provisioner-service.service >/dev/null || true
fi

if [ "$1" = purge ]; then
    if command -v deb-systemd-helper >/dev/null; then
        deb-systemd-helper purge provisioner-service.service >/dev/null || true
        deb-systemd-helper unmask provisioner-service.service >/dev/null || true
    fi
    # The data (the embedded database, its keys) and what the administrator put beside the
    # configuration (the database password, the sealing key).
    rm -rf /var/lib/provisioner-service
    rm -f /etc/provisioner-service/database-password /etc/provisioner-service/sealing-key
    rmdir /etc/provisioner-service 2>/dev/null || true
    if getent passwd ${SERVICE_USER} >/dev/null && command -v deluser >/dev/null; then
        deluser --system --quiet ${SERVICE_USER} || true
    fi
    if getent group ${SERVICE_USER} >/dev/null && command -v delgroup >/dev/null; then
        delgroup --system --quiet ${SERVICE_USER} || true
    fi
fi
`;

async function stageService(stage, context) {
  const built = await buildService({ outDir: join(stage, 'usr/lib/provisioner-service'), quiet: true, strip: true });
  link(stage, 'usr/sbin/provisioner-service', 'usr/lib/provisioner-service/provisioner-service');
  writeGzipped(join(stage, 'usr/share/man/man8/provisioner-service.8.gz'), context.references.serviceMan(context.page));
  write(join(stage, 'lib/systemd/system/provisioner-service.service'), SERVICE_UNIT);
  write(join(stage, 'usr/share/doc/provisioner-service/copyright'), copyright(SERVICE_USER, built, context.time));
  writeGzipped(join(stage, 'usr/share/doc/provisioner-service/changelog.gz'), changelog(SERVICE_USER, context));
  write(
    join(stage, 'usr/share/lintian/overrides/provisioner-service'),
    lintianOverrides(SERVICE_USER, addonTags(stage)) +
      `# The settings file names where the database password and sealing key are; it is root's alone.\n${SERVICE_USER}: non-standard-file-perm 0600 != 0644 [etc/provisioner-service/service.env]\n`,
  );
  normalizeModes(stage);
  write(join(stage, 'etc/provisioner-service/service.env'), SERVICE_ENV, 0o600);
  write(join(stage, 'DEBIAN/conffiles'), '/etc/provisioner-service/service.env\n');
  write(join(stage, 'DEBIAN/postinst'), POSTINST, 0o755);
  write(join(stage, 'DEBIAN/prerm'), PRERM, 0o755);
  write(join(stage, 'DEBIAN/postrm'), POSTRM, 0o755);
  write(join(stage, 'DEBIAN/md5sums'), md5sums(stage));
  write(
    join(stage, 'DEBIAN/control'),
    control(stage, {
      Package: SERVICE_USER,
      Version: context.version,
      Architecture: DEBIAN_ARCH,
      Maintainer: maintainer(),
      Depends: `adduser, ${binaryDepends(stage)}`,
      Suggests: 'postgresql (>= 15)',
      Section: 'admin',
      Priority: 'optional',
      Description: description('Device Configuration and Management Service for Provisioner', [
        'The service the Provisioner app and CLI work against: organizations, API keys and roles, firmware, configurations and the confirmations of every apply, over HTTP (the v1 interface). It keeps its data in an embedded database under /var/lib/provisioner-service, or in PostgreSQL for several instances behind a load balancer.',
        'Runs as the system user provisioner-service under systemd (provisioner-service.service), configured in /etc/provisioner-service/service.env.',
      ]),
    }),
  );
}

/**
 * xz by default: what Debian's archive uses, the smallest. gzip packs the 100 MB executables in
 * about a minute where xz takes several on a busy machine: for builds that are installed and thrown
 * away, as the tests' are. (zstd would be faster still, but lintian 2.116, Debian 12's, calls such
 * a package malformed.)
 */
const COMPRESSIONS = ['xz', 'gzip'];

function dpkgDeb(stage, file, compression) {
  const built = spawnSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', stage, file], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`dpkg-deb --build ${file} failed: ${built.stderr || built.stdout}`);
}

/** lintian's findings on `file`; throws on an error. Answers undefined when lintian is not installed. */
function lint(file) {
  if (spawnSync('lintian', ['--version'], { encoding: 'utf8' }).error) return undefined;
  const result = spawnSync('lintian', ['--fail-on', 'error', '--tag-display-limit', '0', file], { encoding: 'utf8' });
  const findings = `${result.stdout}${result.stderr}`.trim();
  if (result.status !== 0) throw new Error(`lintian found errors in ${file}:\n${findings}`);
  return findings;
}

/**
 * Builds both packages into outDir (compressed with `compression`: xz or gzip); answers their paths and lintian's findings (undefined where
 * lintian is not installed).
 */
export async function distLinux({ outDir = DEFAULT_OUT_DIR, quiet = false, compression = 'xz' } = {}) {
  if (!COMPRESSIONS.includes(compression)) throw new Error(`--compression must be one of ${COMPRESSIONS.join(', ')}.`);
  if (process.platform !== 'linux' || !DEBIAN_ARCH)
    throw new Error(`Debian packages are built on Linux x64 or arm64; this is ${process.platform} ${process.arch}.`);
  if (spawnSync('dpkg-deb', ['--version']).error)
    throw new Error('dpkg-deb is not installed: apt-get install dpkg-dev (it comes with every Debian and Ubuntu).');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const time = buildTime();
  const context = {
    version,
    time,
    page: { version, date: time.toISOString().slice(0, 10) },
    references: await references(),
  };
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'provisioner-dist-linux-'));
  const packages = [];
  try {
    for (const [name, stageWith] of [
      ['provisioner', stageCli],
      [SERVICE_USER, stageService],
    ]) {
      const stage = join(work, name);
      mkdirSync(stage, { mode: 0o755 });
      await stageWith(stage, context);
      const file = join(outDir, `${name}_${version}_${DEBIAN_ARCH}.deb`);
      rmSync(file, { force: true });
      dpkgDeb(stage, file, compression);
      const findings = lint(file);
      if (!quiet)
        console.log(
          `Built ${relative(process.cwd(), file)}${findings === undefined ? ' (lintian is not installed: not checked)' : findings ? `; lintian:\n${findings}` : '; lintian: clean'}`,
        );
      packages.push({ name, file, lintian: findings });
    }
    return packages;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The value after `flag` on the command line, or `fallback` when the flag is not given. */
function argument(flag, fallback) {
  const at = process.argv.indexOf(flag);
  if (at === -1) return fallback;
  const value = process.argv[at + 1];
  if (!value || value.startsWith('--')) {
    console.error(`${flag} needs a value`);
    process.exit(2);
  }
  return value;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  distLinux({ outDir: resolve(argument('--out', DEFAULT_OUT_DIR)), compression: argument('--compression', 'xz') }).then(
    () => process.exit(0),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
