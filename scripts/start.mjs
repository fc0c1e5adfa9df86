#!/usr/bin/env node
// `npm start`: build the SPA when it is missing or older than its sources, then run the reference server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const index = 'dist/web/index.html';
if (!existsSync(index) || statSync(index).mtimeMs < newest('src')) {
  console.log('Building the SPA…');
  const build = spawnSync('npx', ['rsbuild', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The server runs as this process's direct child (Node with the tsx loader, no npx/sh/tsx wrappers
// between), and SIGTERM/SIGINT are passed on: it drains in-flight requests and closes sockets with
// 1001 instead of being killed with the wrappers.
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
