// The gateway as a Debian package of its own (issue 27 item 1, docs/decisions/267):
//   npm run gateway:package [-- --arch amd64,arm64] [--out dist/gateway] [--release-key public.pem]
// One bundle of gateway/ (commander, zod, pino inside it) plus the two packages that cannot be
// bundled: better-sqlite3 (native: only its loader and the binary) and node-ble (loaded at run
// time), each with its own dependencies and nothing else. Node itself is a dependency (nodejs
// 20.x, the ABI better-sqlite3's binary is built for), not shipped. systemd runs the launcher
// (decision 290), which runs the packaged daemon or a release taken from the console; the
// release public key (--release-key) goes in beside them, without it the boxes take no update.
//
// The native binary is per architecture: amd64 takes the one in node_modules when this machine
// is amd64; another architecture needs ONRECO_GATEWAY_BINDING_<ARCH>=path/to/better_sqlite3.node
// (better-sqlite3's release asset for linux-<arch> and Node 20, e.g. from
// `npx prebuild-install --arch arm64 --platform linux --target 20.0.0` in a copy of the package):
// without it that architecture is skipped with the reason, never packaged with a wrong binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releasePublicKey } from '../releases';
import { GATEWAY_VERSION } from '../version';
import { buildGateway } from './build';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../..');
const NODE_MODULES = path.join(ROOT, 'node_modules');

export const PACKAGE = 'onreco-gateway';
/** Where the package puts the daemon. */
export const LIB_DIR = '/usr/lib/onreco-gateway';
/** Where the package puts the release public key: gateway/config.ts's default `releaseKey`. */
export const RELEASE_KEY_FILE = `${LIB_DIR}/release-key.pem`;
/** better-sqlite3's binary is built for one Node ABI: Node 20's (NODE_MODULE_VERSION 115). */
const NODE_DEPENDS = 'nodejs (>= 20), nodejs (<< 21)';
const ARCHES = { amd64: 'x64', arm64: 'arm64' } as const;
export type DebArch = keyof typeof ARCHES;

/** Packages the bundle loads at run time, and what is install-time only in their dependencies. */
const RUNTIME_PACKAGES = ['better-sqlite3', 'node-ble'];
const INSTALL_TIME_ONLY = new Set(['prebuild-install']);

export interface PackageResult {
  arch: DebArch;
  deb?: string;
  skipped?: string;
  installedKb?: number;
}

/**
 * The release public key as the package ships it (SPKI PEM), from a file: an ed25519 public key,
 * never a private one (a private key would let anyone who has the package sign releases).
 */
export function packagedReleaseKey(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (/PRIVATE KEY/.test(text)) throw new Error(`${file} holds a private key: give the package the public key only (openssl pkey -in private.pem -pubout)`);
  return releasePublicKey(text).export({ type: 'spki', format: 'pem' }).toString();
}

/** The dependency closure of the runtime packages, as directories under node_modules. */
function closure(): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (name: string, from: string) => {
    if (found.has(name) || INSTALL_TIME_ONLY.has(name)) return;
    // Node's resolution: nested node_modules first, then up to the root's.
    let dir = from;
    let pkgDir: string | null = null;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      if (existsSync(path.join(candidate, 'package.json'))) {
        pkgDir = candidate;
        break;
      }
      if (dir === ROOT || dir === path.dirname(dir)) break;
      dir = path.dirname(dir);
    }
    if (!pkgDir) return; // an optional dependency not installed here
    found.set(name, pkgDir);
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, pkgDir);
  };
  for (const name of RUNTIME_PACKAGES) visit(name, ROOT);
  return found;
}

/** Copies a package, leaving out what it needs only to be built or developed. */
function copyPackage(name: string, from: string, toModules: string, binding: string | null): void {
  const to = path.join(toModules, name);
  if (name === 'better-sqlite3') {
    // The loader, and the one binary: not the SQLite sources (9 MB) nor the build tree.
    mkdirSync(path.join(to, 'build/Release'), { recursive: true });
    cpSync(path.join(from, 'package.json'), path.join(to, 'package.json'));
    cpSync(path.join(from, 'LICENSE'), path.join(to, 'LICENSE'));
    cpSync(path.join(from, 'lib'), path.join(to, 'lib'), { recursive: true });
    cpSync(binding!, path.join(to, 'build/Release/better_sqlite3.node'));
    return;
  }
  const skip = /(^|\/)(test|tests|__tests__|example|examples|docs?|\.github|coverage|benchmarks?|node_modules)(\/|$)|\.(md|map|ts|flow)$/i;
  cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      return rel === '' || !skip.test(rel) || /^licen[cs]e/i.test(path.basename(src));
    },
  });
}

function bindingFor(arch: DebArch): { path: string } | { skipped: string } {
  const env = process.env[`ONRECO_GATEWAY_BINDING_${arch.toUpperCase()}`];
  if (env) return existsSync(env) ? { path: path.resolve(env) } : { skipped: `ONRECO_GATEWAY_BINDING_${arch.toUpperCase()}=${env} does not exist` };
  if (process.arch === ARCHES[arch] && process.versions.modules === '115') {
    return { path: path.join(NODE_MODULES, 'better-sqlite3/build/Release/better_sqlite3.node') };
  }
  return {
    skipped:
      `no better-sqlite3 binary for linux-${ARCHES[arch]} and Node 20 (this machine is ${process.arch}, Node ABI ${process.versions.modules}): ` +
      `set ONRECO_GATEWAY_BINDING_${arch.toUpperCase()} to one (better-sqlite3's release asset)`,
  };
}

function duKb(dir: string): number {
  let bytes = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) bytes += statSync(p).size;
    }
  };
  walk(dir);
  return Math.ceil(bytes / 1024);
}

const write = (file: string, text: string, mode = 0o644) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
};

export async function buildPackage(arch: DebArch, outDir: string, options: { releaseKey?: string } = {}): Promise<PackageResult> {
  const releaseKeyPem = options.releaseKey ? packagedReleaseKey(options.releaseKey) : null;
  const binding = bindingFor(arch);
  if ('skipped' in binding) return { arch, skipped: binding.skipped };
  const stage = path.join(outDir, `stage-${arch}`);
  rmSync(stage, { recursive: true, force: true });
  const lib = path.join(stage, LIB_DIR.slice(1));
  mkdirSync(path.join(lib, 'node_modules'), { recursive: true });

  await buildGateway(path.join(lib, 'onreco-gateway.mjs'), { external: RUNTIME_PACKAGES });
  await buildGateway(path.join(lib, 'launcher.mjs'), { external: RUNTIME_PACKAGES, entry: 'launcher' });
  chmodSync(path.join(lib, 'onreco-gateway.mjs'), 0o755);
  if (releaseKeyPem) write(path.join(stage, RELEASE_KEY_FILE.slice(1)), releaseKeyPem);
  for (const [name, dir] of closure()) copyPackage(name, dir, path.join(lib, 'node_modules'), binding.path);

  const deploy = path.join(ROOT, 'gateway/deploy');
  // The command installers type; root runs it as the service user when it is about the data dir.
  write(path.join(stage, 'usr/bin/onreco-gateway'), `#!/bin/sh\nexec /usr/bin/node ${LIB_DIR}/onreco-gateway.mjs "$@"\n`, 0o755);
  cpSync(path.join(deploy, 'onreco-gateway.service'), path.join(stage, 'lib/systemd/system/onreco-gateway.service'));
  cpSync(path.join(deploy, 'onreco-gateway.sysusers'), path.join(stage, 'usr/lib/sysusers.d/onreco-gateway.conf'));
  cpSync(path.join(deploy, 'onreco-gateway-dbus.conf'), path.join(stage, 'usr/share/dbus-1/system.d/onreco-gateway.conf'));
  cpSync(path.join(deploy, 'onreco-gateway.polkit.rules'), path.join(stage, 'usr/share/polkit-1/rules.d/50-onreco-gateway.rules'));
  cpSync(path.join(deploy, 'onreco-gateway.default'), path.join(stage, 'etc/default/onreco-gateway'));
  cpSync(path.join(ROOT, 'docs/gateway.md'), path.join(stage, 'usr/share/doc/onreco-gateway/gateway.md'));

  const installedKb = duKb(stage);
  const debian = path.join(stage, 'DEBIAN');
  write(
    path.join(debian, 'control'),
    [
      `Package: ${PACKAGE}`,
      `Version: ${GATEWAY_VERSION}`,
      `Architecture: ${arch}`,
      'Maintainer: On-Reco <onreco@example.invalid>',
      `Installed-Size: ${installedKb}`,
      `Depends: ${NODE_DEPENDS}, bluez (>= 5.55), dbus, adduser`,
      'Recommends: modemmanager, polkitd | policykit-1',
      'Section: misc',
      'Priority: optional',
      'Description: On-Reco store gateway: BLE temperature sensors to the On-Reco console',
      ' Listens to the store\'s BLE sensors through BlueZ, keeps one reading per sensor per',
      ' interval on disk and uploads them to the console over LTE.',
      '',
    ].join('\n'),
  );
  write(path.join(debian, 'conffiles'), '/etc/default/onreco-gateway\n');
  for (const script of ['postinst', 'prerm', 'postrm']) cpSync(path.join(deploy, `debian/${script}`), path.join(debian, script));
  for (const script of ['postinst', 'prerm', 'postrm']) chmodSync(path.join(debian, script), 0o755);

  const deb = path.join(outDir, `${PACKAGE}_${GATEWAY_VERSION}_${arch}.deb`);
  execFileSync('fakeroot', ['dpkg-deb', '--build', '-Zxz', stage, deb], { stdio: ['ignore', 'ignore', 'inherit'] });
  rmSync(stage, { recursive: true, force: true });
  return { arch, deb, installedKb };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const arches = (option('--arch') ?? 'amd64,arm64').split(',') as DebArch[];
  const outDir = path.resolve(option('--out') ?? path.join(ROOT, 'dist/gateway'));
  const releaseKey = option('--release-key');
  if (!releaseKey) console.log('no --release-key: boxes with this package take no update from the console');
  mkdirSync(outDir, { recursive: true });
  let built = 0;
  for (const arch of arches) {
    if (!(arch in ARCHES)) throw new Error(`unknown architecture ${arch} (amd64, arm64)`);
    const result = await buildPackage(arch, outDir, { releaseKey });
    if (result.deb) {
      built += 1;
      console.log(`built ${path.relative(ROOT, result.deb)} (${(statSync(result.deb).size / 1e6).toFixed(1)} MB, installed ${(result.installedKb! / 1024).toFixed(1)} MB)`);
    } else {
      console.log(`skipped ${arch}: ${result.skipped}`);
    }
  }
  process.exit(built > 0 ? 0 : 1);
}
