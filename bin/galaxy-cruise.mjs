#!/usr/bin/env node
// The `galaxy-cruise` command. It runs the JavaScript build in build/node/ (made by `npm install`
// and `npm start`, or `node scripts/build.mjs node`) when that build is fresh: made from the
// sources as they are now, none of them changed or missing since (scripts/node-build.mjs). Else
// it runs the TypeScript sources through tsx's loader, so that a change to a source takes effect
// at the next start without a build, only a slower start.
import { fileURLToPath } from 'node:url';
import { nodeBuildIsFresh } from '../scripts/node-build.mjs';

let main;
if (nodeBuildIsFresh(fileURLToPath(new URL('..', import.meta.url)))) ({ main } = await import('../build/node/main.js'));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
