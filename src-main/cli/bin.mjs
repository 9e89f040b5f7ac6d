#!/usr/bin/env node
// `npx balcao …` runs the TypeScript CLI directly (tsx), so it works right after `npm install`.
import { register } from 'tsx/esm/api';

register({ tsconfig: new URL('../../tsconfig.json', import.meta.url).pathname });
const { main } = await import('./main.ts');
const code = await main(process.argv.slice(2));
// With module hooks registered, Node 20 loses process.exitCode at exit: exit explicitly once
// stdout has been flushed.
process.stdout.write('', () => process.exit(code));
