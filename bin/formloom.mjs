#!/usr/bin/env node
// The `formloom` command. Runs the TypeScript source through tsx (a dependency), so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
await main(process.argv.slice(2));
