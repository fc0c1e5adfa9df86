#!/usr/bin/env node
// Fails when src/generated is stale: regenerate from contracts/, then any diff (or new file) is an error.
import { execSync } from 'node:child_process';

execSync('npm run --silent codegen', { stdio: 'inherit' });
// Working tree against the index (what is committed or staged), plus files git does not know yet.
const changed = execSync('git diff --name-only -- src/generated', { encoding: 'utf8' }).trim();
const untracked = execSync('git ls-files --others --exclude-standard -- src/generated', { encoding: 'utf8' }).trim();
const status = [changed, untracked].filter(Boolean).join('\n');
if (status) {
  console.error('src/generated is stale; run `npm run codegen` and commit the result:\n' + status);
  process.exit(1);
}
console.log('src/generated is fresh.');
