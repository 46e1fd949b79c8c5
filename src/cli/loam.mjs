#!/usr/bin/env node
// The package's `bin`: runs the TypeScript CLI through tsx, so `npx loam …` works in a
// checkout right after `npm ci`, without a build step.
import { register } from 'tsx/esm/api';

register();
const { program } = await import('./main.ts');
await program().parseAsync(process.argv);
