#!/usr/bin/env node
// The `galaxy-cruise` command. Sources are TypeScript run through tsx's loader, so the CLI,
// the server and the tests share one set of files with no separate server build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
