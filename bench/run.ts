// `npm run bench -- <name> [options]`: runs bench/<name>.ts. Every benchmark prints one JSON
// object per line: { bench, backend?, metric, value, unit, baseline?, ratio? } — rates carry a
// baseline measured in the same run, because these machines are noisy.
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url);
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();
const [name, ...rest] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h' || !names.includes(name)) {
  console.error(`usage: npm run bench -- <name> [options]\nbenchmarks: ${names.join(', ')}`);
  process.exit(name && name !== '--help' && name !== '-h' ? 2 : 0);
}
const mod = (await import(new URL(`./${name}.ts`, dir).href)) as { main(argv: string[]): Promise<void> };
await mod.main(rest);
