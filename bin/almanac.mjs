#!/usr/bin/env node
// Runs the TypeScript CLI directly: no build step between `npm ci` and use.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
await run(process.argv);
