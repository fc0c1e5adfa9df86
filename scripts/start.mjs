#!/usr/bin/env node
// `npm start`: build the SPA and the server when either is missing or older than its sources, then run
// the server as JavaScript (dist/server/main.mjs, rsbuild.server.config.ts): no TypeScript at run time.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(...dirs) {
  let latest = 0;
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }
  }
  return latest;
}

const stale = (built, ...sources) => !existsSync(built) || statSync(built).mtimeMs < newest(...sources);

function build(what, args) {
  if (!existsSync('node_modules/@rsbuild/core')) {
    // An install without devDependencies (npm ci --omit=dev) runs what `npm run build` made; it cannot build.
    console.error(
      `${what} is missing or older than its sources, and the build tools are not installed: run \`npm run build\` with the devDependencies first.`,
    );
    process.exit(1);
  }
  console.log(`Building ${what}…`);
  const result = spawnSync('npx', ['rsbuild', 'build', ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (stale('dist/web/index.html', 'src')) build('the SPA', []);
if (stale('dist/server/main.mjs', 'server/src', 'src/domain', 'src/generated', 'contracts'))
  build('the server', ['-c', 'rsbuild.server.config.ts']);

// The server runs as this process's direct child (no npx/sh wrappers between), and SIGTERM/SIGINT are
// passed on: it drains in-flight requests and closes sockets with 1001 instead of being killed with the
// wrappers. Source maps make its stack traces point into server/src.
const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
