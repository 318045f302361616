#!/usr/bin/env node
// The npm registry this project is built against serves only some platforms' prebuilt binaries,
// so `npm install` cannot record the other platforms' optional packages in package-lock.json,
// and `npm ci` then refuses the lockfile ("Missing: <pkg> from lock file"). This adds a lock entry
// for each such optional package with its os/cpu, so npm ci sees the lock in sync and skips them
// on this platform as it does any optional package for another platform.
// Run after `npm install` changes the lockfile: node scripts/lock-platform-stubs.js
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const pkgs = lock.packages;
const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'sunos', 'aix', 'netbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

let added = 0;
for (const [loc, meta] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = loc ? `${loc}/node_modules/${name}` : `node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (pkgs[base] || pkgs[hoisted]) continue;
    const parts = name.split('/').pop().split('-');
    const os = OS.find((o) => parts.includes(o));
    const cpu = CPU.find((c) => parts.includes(c));
    if (!os || !cpu) continue; // not a platform binary: leave it for npm to report
    pkgs[hoisted] = { version, optional: true, os: [os], cpu: [cpu], ...(meta.dev ? { dev: true } : {}) };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`lock-platform-stubs: added ${added} entries`);
