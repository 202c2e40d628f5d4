// The dashboard words every figure as the library does: each case of tests/golden/figure_words.json
// (whose texts the C++ test FigureWords.EveryCaseIsTheLibrarys keeps) through web/src/format.ts.
//   node web/tests/figure_words.mjs
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const source = readFileSync(join(root, 'web', 'src', 'format.ts'), 'utf8');
const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2020, target: ts.ScriptTarget.ES2020 } });
const dir = mkdtempSync(join(tmpdir(), 'figure-words-'));
const module = join(dir, 'format.mjs');
writeFileSync(module, js.outputText);
const format = await import(pathToFileURL(module).href);
rmSync(dir, { recursive: true, force: true });

const words = {
  duration: (c) => format.formatMs(c[0]),
  bytes: (c) => format.formatBytes(c[0]),
  count: (c) => format.formatCount(c[0]),
  percent: (c) => format.formatPercent(c[0]),
  money: (c) => format.formatMoney(c[0], c[1]),
};
const table = JSON.parse(readFileSync(join(root, 'tests', 'golden', 'figure_words.json'), 'utf8'));
let cases = 0;
const wrong = [];
for (const [kind, list] of Object.entries(table)) {
  if (kind === 'about') continue;
  if (!words[kind]) { wrong.push(`no wording for figures of kind ${kind}`); continue; }
  for (const c of list) {
    cases++;
    const got = words[kind](c);
    const expected = c[c.length - 1];
    if (got !== expected) wrong.push(`${kind} ${JSON.stringify(c.slice(0, -1))}: the dashboard writes "${got}", the library "${expected}"`);
  }
}
for (const line of wrong) console.error(line);
if (wrong.length > 0 || cases < 30) {
  console.error(`figure words: ${wrong.length} of ${cases} cases differ from the library`);
  process.exit(1);
}
console.log(`figure words: the dashboard words all ${cases} cases as the library does`);
