#!/usr/bin/env node
// `npm start`: build the SPA when it is missing or older than its sources, then run the reference server.
import { spawnSync } from 'node:child_process';
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
const server = spawnSync('npx', ['tsx', 'server/src/main.ts'], { stdio: 'inherit' });
process.exit(server.status ?? 1);
