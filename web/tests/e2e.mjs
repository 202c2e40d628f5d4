// The dashboard in a real browser: Debian's chromium driven by playwright-core, against the
// binary's own `serve` over a folder of the real-log corpus (read in place), and against a report
// written by `analyze --format html` opened from file:// with the network cut.
//
//   node web/tests/e2e.mjs SPARKFORENSICS SCREENSHOT_DIR CORPUS_DIR
//
// Each test saves a screenshot in SCREENSHOT_DIR, fails on any console error or uncaught page
// error, and runs axe-core: no serious or critical violation. Prints one line per test and
// 'N passed, N failed'; exit 77 (skipped) with the reason when the corpus or chromium is absent.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';

const [sf, shots, corpusRoot] = process.argv.slice(2).map((p) => resolve(p));
const CHROMIUM = process.env.SF_CHROMIUM ?? '/usr/bin/chromium';
const corpus = join(corpusRoot, 'NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling');
if (!existsSync(corpus)) { console.log(`SKIP: the corpus folder ${corpus} is absent`); process.exit(77); }
if (!existsSync(CHROMIUM)) { console.log(`SKIP: ${CHROMIUM} is absent (scripts/install-deps.sh chromium)`); process.exit(77); }
mkdirSync(shots, { recursive: true });
for (const old of readdirSync(shots)) rmSync(join(shots, old), { force: true });  // this run's only

const LOG = 'rp_sql_eventlog.zstd';            // 1 SQL execution, 5 stages
// Findings of several types and bands, stage findings among the low ones: a GPU run that ran out of memory.
const FINDINGS_LOG = 'gpu_oom_eventlog.zstd';
const FETCHED_APP = 'local-1624371906627';     // eventlog_dsv2.zstd, fetched back from serve itself
const work = mkdtempSync(join(tmpdir(), 'sf-dashboard-e2e-'));

// --- The servers, over corpus folders in place: the NVIDIA profiling logs for one log's pages;
// Spark's own spark-events for the compare and history pages, with a result store this test fills.
const sparkEvents = join(corpusRoot, 'spark-events');
const codecs = join(corpusRoot, 'codecs');
let serverLog = '';
const servers = [];
async function startServe(args) {
  const child = spawn(sf, ['serve', '--port', '0', '--upload-dir', work, '--rescan-interval', '0', ...args],
                      { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  child.stderr.on('data', (d) => { serverLog += d; });
  const port = await new Promise((res, rej) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => { const m = /:(\d+)\//.exec(line); m ? res(Number(m[1])) : rej(new Error(line)); });
    child.once('exit', (code) => rej(new Error(`serve exited ${code}: ${serverLog}`)));
  });
  return `http://127.0.0.1:${port}`;
}

// The result store: "nightly", eight revisions in a chain whose last is 40% slower (the planted
// regression), "paired", a planned run of five rounds whose candidate is 8% slower, and "etl",
// two of spark-events' logs ingested as revisions e1 and e2.
const BASE_LOG = 'local-1422981759269';
const CAND_LOG = 'local-1422981780767';
function fillStore(store) {
  const files = [];
  const result = (name, doc) => { const path = join(work, name); writeFileSync(path, JSON.stringify(doc)); files.push('--result', path); };
  [1000, 1004, 998, 1003, 999, 1001, 1002, 1400].forEach((value, i) => result(`n${i}.json`, {
    schema: 'sparkforensics.result/1', subject: 'nightly', revision: { tree: `c${i + 1}`, parents: i ? [`c${i}`] : [] },
    quantities: [{ name: 'durationMs', value, unit: 'ms', direction: 'lower' }] }));
  for (let r = 1; r <= 5; r++) {
    for (const [role, factor, slot] of [['baseline', 1, 2 * r - 1], ['candidate', 1.08, 2 * r]]) {
      result(`p${role}${r}.json`, { schema: 'sparkforensics.result/1', subject: 'paired', parameters: { role },
        procedure: { runKey: 'pr-1', round: r, slot }, quantities: [{ name: 'durationMs', value: (100 + r) * factor, unit: 'ms' }] });
    }
  }
  execFileSync(sf, ['store', 'ingest', '-q', '--store', store, ...files]);
  execFileSync(sf, ['store', 'ingest', '-q', '--store', store, '--subject', 'etl', '--revision', 'e1', join(sparkEvents, BASE_LOG)]);
  execFileSync(sf, ['store', 'ingest', '-q', '--store', store, '--subject', 'etl', '--revision', 'e2', '--parent', 'e1',
                    join(sparkEvents, CAND_LOG)]);
}
const sqliteStore = join(work, 'results.db');
fillStore(sqliteStore);
const base = await startServe(['--log-dir', corpus]);
// Spark's own Structured Streaming test log (Spark 3.1, Kafka, 8 batches), in a serve of its own.
const streamingDir = join(corpusRoot, 'apache__spark/sql/core/src/test/resources/spark-events');
const STREAMING_LOG = 'local-1596020211915';
const streamingBase = existsSync(join(streamingDir, STREAMING_LOG)) ? await startServe(['--log-dir', streamingDir]) : null;
const compareBase = await startServe(['--log-dir', sparkEvents, '--store', sqliteStore]);
// A real Spark Connect server's log: the one ctest's spark_scenarios wrote when it is there, else
// written here by the same client (tests/spark/connect_client.py on the project's pyspark).
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
function connectLog() {
  const written = join(process.env.SF_SPARK_SCENARIO_LOGS ?? join(repo, 'build/spark-scenarios'), 'connect/connect.json');
  if (existsSync(written)) return { log: JSON.parse(readFileSync(written, 'utf8')).log };
  const python = join(repo, '.venv/bin/python');
  if (!existsSync(python)) return { skip: `no ${written} and no ${python} to write one (make python-deps)` };
  const out = join(work, 'connect');
  execFileSync(python, [join(repo, 'tests/spark/connect_client.py'), '--out', out], { stdio: ['ignore', 'ignore', 'ignore'] });
  return { log: JSON.parse(readFileSync(join(out, 'connect.json'), 'utf8')).log };
}
const connect = connectLog();
const connectBase = connect.log ? await startServe(['--log-dir', dirname(connect.log)]) : null;
// PostgreSQL when the environment has one (scripts/ci-postgres.sh sets SF_TEST_POSTGRES_URL), in
// a schema of its own as tests/e2e/history_cli_test.sh does.
let pgBase = null;
let pgSchema = null;
const pgUrl = process.env.SF_TEST_POSTGRES_URL;
let pgSkip = 'SF_TEST_POSTGRES_URL is not set (scripts/ci-postgres.sh start sets it)';
if (pgUrl) {
  try {
    pgSchema = `sf_e2e_${process.pid}`;
    execFileSync('psql', ['-q', pgUrl, '-c', `CREATE SCHEMA ${pgSchema}`]);
    const url = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}options=-csearch_path%3D${pgSchema}`;
    fillStore(url);
    pgBase = await startServe(['--log-dir', sparkEvents, '--store', url]);
  } catch (error) {
    pgSkip = `PostgreSQL at SF_TEST_POSTGRES_URL is not usable here: ${String(error.message).split('\n')[0]}`;
  }
}
// What the CLI says about the same two logs: the page must say the same.
const cliCompare = (a, b) => JSON.parse(execFileSync(sf, ['compare', '-q', '-f', 'json', a, b]).toString());

const browser = await chromium.launch({
  executablePath: CHROMIUM, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-default-apps'],
});

let passed = 0;
let failed = 0;
const expect = (ok, what) => { if (!ok) throw new Error(what); };

async function test(name, body, { offline = false, fullPage = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  const outside = [];
  if (offline) {
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith('file:')) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
  }
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  const started = Date.now();
  try {
    await body(page);
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.length === 0, `axe: ${serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`).join('; ')}`);
    expect(errors.length === 0, errors.join('\n'));
    expect(outside.length === 0, `requests outside the file: ${outside.join(', ')}`);
    passed++;
    console.log(`ok    ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.log(`FAIL  ${name}: ${error.message}`);
    await page.screenshot({ path: join(shots, `${name}-failed.png`), fullPage: true }).catch(() => undefined);
  } finally {
    await context.close();
  }
}

const findingsUrl = `${base}/logs/${FINDINGS_LOG}/findings`;
const pressedBands = (page) => page.$$eval('.filters button[aria-pressed="true"] .band', (els) => els.map((e) => e.textContent));

try {
  await test('corpus-log-findings', async (page) => {
    await page.goto(base + '/');
    await page.click(`a[href="/logs/${FINDINGS_LOG}/overview"]`);
    await page.waitForSelector('.kpi');
    const economics = await page.textContent('section[aria-label="Where the time and the money go"]');
    expect(/Critical path/.test(economics) && /USD/.test(economics), `the overview says where the time and the money go: ${economics}`);
    await page.getByRole('link', { name: 'Findings', exact: true }).click();
    await page.waitForSelector('.group-head');
    const groups = await page.$$('.group-head');
    expect(groups.length >= 2, `${groups.length} finding groups`);
    await groups[0].click();
    await page.waitForSelector('.group-body .finding');
    expect(/recoverable/.test(await page.textContent('.group-body .finding')), 'a finding with its figure');
  });

  await test('filter-reload-back', async (page) => {
    await page.goto(findingsUrl);
    await page.waitForSelector('.filters');
    expect((await pressedBands(page)).length === 0, 'a URL without filters is the unfiltered board');
    await page.click('.filters button:has(.band-low)');
    await page.waitForURL(/impact=low/);
    const historyLength = await page.evaluate(() => history.length);
    await page.reload();
    await page.waitForSelector('.filters');
    expect((await pressedBands(page)).join() === 'low', 'the filter stays after a reload');
    // The low-band failures finding (the GPU OOM across three stages).
    await page.click('.filters button[aria-pressed="false"]:text-is("failures")');
    await page.waitForURL(/type=failures/);
    expect(await page.evaluate(() => history.length) === historyLength, 'filtering adds no history entry');
    // Away to a stage (a new entry, the filter carried), back to the board, clear it: Back restores it.
    await page.click('.group-head');
    await page.click('.group-body a.chip');
    await page.waitForSelector('.stage');
    await page.getByRole('link', { name: 'Findings', exact: true }).click();
    await page.waitForSelector('.filters');
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    expect((await pressedBands(page)).length === 0 && !/impact=/.test(page.url()), 'cleared');
    await page.goBack();
    await page.waitForSelector('.stage');
    await page.goBack();
    await page.waitForSelector('.filters');
    expect(/impact=low/.test(page.url()) && (await pressedBands(page)).join() === 'low', `Back restores the filter: ${page.url()}`);
    await page.goto(findingsUrl);
    await page.waitForSelector('.filters');
    expect((await pressedBands(page)).length === 0, 'a reload without parameters is unfiltered');
  });

  await test('switching-logs-resets-the-filter', async (page) => {
    await page.goto(`${findingsUrl}?impact=low`);
    await page.waitForSelector('.filters');
    expect((await pressedBands(page)).join() === 'low', 'a deep link restores its filter');
    await page.getByRole('link', { name: 'SparkForensics', exact: true }).click();
    await page.click('a[href="/logs/spark2-eventlog.zstd/overview"]');
    await page.waitForSelector('.kpi');
    await page.getByRole('link', { name: 'Findings', exact: true }).click();
    await page.waitForSelector('.filters');
    expect(!/impact=/.test(page.url()) && (await pressedBands(page)).length === 0, 'another log starts unfiltered');
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await page.waitForSelector('.filters');
    expect(page.url().includes(FINDINGS_LOG) && (await pressedBands(page)).join() === 'low', `Back to the first log restores its filter: ${page.url()}`);
  });

  await test('stage-drilldown', async (page) => {
    await page.goto(`${base}/logs/${LOG}/stages`);
    await page.click('table.grid tbody a');
    await page.waitForSelector('.stage');
    expect(await page.isVisible('text=Task duration'), 'the duration distribution');
    expect((await page.$$('table.compact tbody tr')).length >= 2, 'per-executor and per-host rows');
    // echarts draws its canvas in an effect after the rows render: wait for it (a timeout fails).
    await page.waitForSelector('canvas', { state: 'visible' });
    // Histograms of the stage's successful tasks, and its tasks a page at a time in the order asked.
    await page.waitForSelector('.dist[data-shows=histogram] canvas');
    await page.waitForSelector('table.tasks tbody tr');
    const durations = async () => page.$$eval('table.tasks tbody tr', (rows) => rows.map((r) => r.children[3].textContent));
    const largestFirst = await durations();
    expect(largestFirst.length >= 2, `task rows: ${largestFirst.length}`);
    await page.getByRole('button', { name: 'largest first' }).click();
    await page.waitForSelector('button[aria-pressed="false"]:text-is("smallest first")');
    await page.waitForFunction((first) => document.querySelector('table.tasks tbody tr td:nth-child(4)')?.textContent !== first,
                               largestFirst[0]);
    const smallestFirst = await durations();
    // Durations as the library words them (tests/golden/figure_words.json): "450 ms", "2.2s", "1m 05s".
    const ms = (text) => { const m = /^([\d.]+) ?(ms|s)$/.exec(text); return m ? Number(m[1]) * (m[2] === 's' ? 1000 : 1) : NaN; };
    const ordered = (list, sign) => list.map(ms).every((v, i, all) => i === 0 || sign * (v - all[i - 1]) >= 0);
    expect(ordered(largestFirst, -1), `largest first: ${largestFirst}`);
    expect(ordered(smallestFirst, 1), `smallest first: ${smallestFirst}`);
  });

  await test('plan-graph', async (page) => {
    await page.goto(`${base}/logs/${LOG}/sql`);
    await page.click('table.grid tbody a');
    await page.waitForSelector('svg g.node');
    expect((await page.$$('svg g.node')).length >= 5, 'the plan laid out');
    await page.fill('input[type=search]', 'Exchange');
    expect((await page.$$('svg g.node.match')).length >= 1, 'search highlights an operator');
    await page.focus('svg g.node.match');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.node-detail');
  });

  await test('timeline-and-overview-dark', async (page) => {
    await page.goto(`${base}/logs/${LOG}/timeline`);
    await page.waitForSelector('canvas');
    await page.getByRole('button', { name: /dark theme/ }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.waitForSelector('.kpi');
    await page.getByRole('link', { name: 'Environment', exact: true }).click();
    await page.waitForSelector('table.props');
  }, { fullPage: false });

  await test('compare-two-corpus-logs', async (page) => {
    const expected = cliCompare(join(sparkEvents, BASE_LOG), join(sparkEvents, CAND_LOG));
    await page.goto(`${compareBase}/`);
    await page.getByRole('link', { name: 'Compare', exact: true }).click();
    await page.fill('[data-slot=base] input[type=search]', '1422981759269');
    await page.click(`[data-slot=base] button[data-log="${BASE_LOG}"]`);
    await page.waitForURL(/base=/);
    await page.fill('[data-slot=cand] input[type=search]', '1422981780767');
    await page.click(`[data-slot=cand] button[data-log="${CAND_LOG}"]`);
    await page.waitForSelector('.banner');
    expect(new URL(page.url()).searchParams.get('cand') === CAND_LOG, `the address names both runs: ${page.url()}`);
    const confidence = await page.getAttribute('.banner', 'data-confidence');
    expect(confidence === expected.confidence, `the banner says ${confidence}, compare says ${expected.confidence}`);
    if (expected.banner) expect((await page.textContent('.banner')).includes(expected.banner), 'the banner gives the reason');
    const methods = await page.$$eval('table.pairs tbody tr', (rows) => rows.map((r) => r.dataset.method));
    expect(methods.join() === expected.stagePairs.map((p) => p.method).join(), `pairs ${methods} against ${expected.stagePairs.length}`);
    const unmatched = await page.textContent('.unmatched');
    for (const id of expected.unmatched.baseline) expect(unmatched.includes(String(id)), `unmatched baseline stage ${id} shown`);
    // The address is the page: opened again, it shows the same comparison.
    await page.goto(page.url());
    await page.waitForSelector('.banner');
    expect(await page.getAttribute('.banner', 'data-confidence') === confidence, 'a shared address shows the same');
  });

  await test('compare-reencoded-copy', async (page) => {
    const copy = join(codecs, `${CAND_LOG}.lz4`);
    const expected = cliCompare(join(sparkEvents, CAND_LOG), copy);
    await page.goto(`${compareBase}/compare?base=${CAND_LOG}`);
    await page.setInputFiles('[data-testid=cand-file]', copy);  // the upload way in, the copy read in place
    await page.waitForSelector('.banner');
    expect(/^~u\d+$/.test(new URL(page.url()).searchParams.get('cand') ?? ''), `the upload is named in the address: ${page.url()}`);
    const methods = await page.$$eval('table.pairs tbody tr', (rows) => rows.map((r) => r.dataset.method));
    const ran = expected.baseStages.length - expected.deltaBookkeeping.baseline.length;
    expect(methods.length === ran && methods.every((m) => m === 'exact'), `every stage exact: ${methods}`);
    expect(await page.getAttribute('.banner', 'data-confidence') === 'ok', 'a copy of a log compares with confidence');
    expect((await page.textContent('.unmatched')).match(/none/g)?.length === 2, 'nothing unmatched');
  });

  await test('compare-plan-diff-and-pins', async (page) => {
    const log = 'local-1642039451826';  // Spark 3.2 with SQL executions
    await page.goto(`${compareBase}/compare?base=${log}&cand=${log}`);
    await page.waitForSelector('.banner');
    await page.click('button[data-plan]');
    await page.waitForSelector('.plan-diff svg g.node');
    expect((await page.$$('.plan-diff figure')).length === 2, 'two plans side by side');
    const changes = await page.$$eval('.plan-diff g.node', (nodes) => nodes.map((n) => n.dataset.change));
    expect(changes.length > 2 && changes.every((c) => c === 'same'), `a plan against itself is the same: ${changes}`);
    // Pair two stages by hand: the server compares again and says so.
    const options = await page.$$eval('select[name=pin-base] option', (os) => os.map((o) => o.value).filter(Boolean));
    await page.selectOption('select[name=pin-base]', options[0]);
    await page.selectOption('select[name=pin-cand]', options[1]);
    await page.click('.pins button[type=submit]');
    await page.waitForURL(/pin=/);
    await page.waitForSelector('table.pairs tr[data-method=pinned]');
    expect(await page.textContent('table.pairs tr[data-method=pinned] .method') === 'pinned by hand', 'the pair says how it was made');
  });

  const historyTest = (name, origin) => test(name, async (page) => {
    await page.goto(`${origin}/history`);
    await page.selectOption('select[name=subject]', 'nightly');
    await page.click('tr[data-quantity=durationMs] a');
    await page.waitForSelector('table.points tbody tr');
    await page.waitForSelector('.series canvas', { state: 'visible' });  // drawn in an effect, after the table
    const verdicts = await page.$$eval('table.points tbody tr', (rows) => rows.map((r) => [r.cells[0].textContent, r.dataset.verdict]));
    expect(verdicts.map((v) => v[0]).join() === 'c1,c2,c3,c4,c5,c6,c7,c8', `ancestry order: ${verdicts}`);
    expect(verdicts.at(-1)[1] === 'regressed', `the planted regression is marked: ${verdicts.at(-1)}`);
    expect(verdicts.slice(0, -1).every((v) => v[1] !== 'regressed'), 'nothing else is');
    expect(/dispersion-scaled/.test(await page.textContent('.method')), 'the method and its configuration');
    expect((await page.textContent('.evaluation')).includes('Reference window'), 'the reference window of the point');
    await page.screenshot({ path: join(shots, `${name}-series.png`), fullPage: true });  // the end shows the compare page
    const text = await page.textContent('body');
    expect(!/password|:\/\/[^ ]*@/.test(text), 'no credentials on the page');
    // A planned run, and one revision's verdicts with the way to the compare page.
    await page.goto(`${origin}/history?subject=paired&tab=run`);
    await page.waitForSelector('.run-unit');
    expect(await page.getAttribute('.run-unit', 'data-verdict') === 'regressed', 'the 8% slower candidate');
    await page.goto(`${origin}/history?subject=etl&tab=batch`);
    await page.waitForSelector('.batch-view table tbody tr');
    await page.click('.batch-view .chip:text-is("indeterminate")');
    await page.waitForURL(/show=indeterminate/);
    await page.click('.batch-view a.compare-link');
    await page.waitForSelector('.banner');
    expect(new URL(page.url()).searchParams.get('base') === BASE_LOG && new URL(page.url()).searchParams.get('cand') === CAND_LOG,
           `the two runs behind the point: ${page.url()}`);
  });
  await historyTest('history-sqlite', compareBase);
  if (pgBase) await historyTest('history-postgres', pgBase);
  else console.log(`skip  history-postgres: ${pgSkip}`);

  // The fleet page over the same store: every job at its latest run, reached by keyboard, in both
  // themes; a job's link opens its history page.
  await test('fleet', async (page) => {
    await page.goto(`${compareBase}/`);
    await page.getByRole('link', { name: 'Fleet', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.fleet-trend tbody tr');
    expect(new URL(page.url()).pathname === '/fleet', `the nav link leads to /fleet: ${page.url()}`);
    const trend = await page.$$eval('table.fleet-trend tbody tr', (rows) => rows.map((r) => r.dataset.subject));
    expect(trend.join() === 'etl,paired,nightly', `the jobs with a history, latest first: ${trend}`);
    const verdicts = await page.$$eval('table.fleet-trend tr[data-subject=etl] td[data-verdict]', (cells) => cells.map((c) => c.dataset.quantity));
    expect(verdicts.join() === 'appWallClockMs,cost', `etl's verdicts on wall-clock and cost: ${verdicts}`);
    expect((await page.$$('table.fleet-types tbody tr')).length > 0, 'the finding types of the logs ingested');
    expect((await page.$$('table.fleet-costs[data-currency=USD] tbody tr')).length === 1, 'etl\'s cost, in dollars');
    expect(/2 of 3 latest runs were stored before/.test(await page.textContent('.without-analysis')),
           'the results without findings are counted, not ranked');
    await page.getByRole('button', { name: /dark theme/ }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.screenshot({ path: join(shots, 'fleet-dark.png'), fullPage: true });
    await page.getByRole('button', { name: /light theme/ }).click();
    // A job's link, by keyboard: its history page.
    await page.focus('table.fleet-trend tr[data-subject=etl] a.job');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/history\?subject=etl/);
    await page.waitForSelector('table.series-list tbody tr');
    await page.goBack();
    await page.waitForSelector('table.fleet-trend tbody tr');
  });

  // Structured Streaming: the nav entry only for a log with streaming queries, the list with Spark
  // UI's columns, a run's charts (echarts draws in an effect: wait for the canvases) and its batch
  // table, one row per batch of the log; in both themes.
  if (streamingBase) {
    await test('streaming', async (page) => {
      await page.goto(`${base}/logs/${LOG}/overview`);
      await page.waitForSelector('.kpi');
      expect(await page.getByRole('link', { name: 'Streaming', exact: true }).count() === 0,
             'a batch application has no Streaming page');
      await page.goto(`${streamingBase}/logs/${STREAMING_LOG}/overview`);
      await page.waitForSelector('.kpi');
      await page.getByRole('link', { name: 'Streaming', exact: true }).click();
      await page.waitForSelector('table.streaming-runs tbody tr');
      const headers = await page.$$eval('table.streaming-runs thead th', (ths) => ths.map((t) => t.textContent));
      for (const column of ['Name', 'Status', 'ID', 'Run ID', 'Start Time', 'Duration', 'Avg Input /sec', 'Avg Process /sec',
                            'Latest Batch', 'Error']) {
        expect(headers.includes(column), `the list has Spark UI's column ${column}: ${headers}`);
      }
      const runIds = await page.$$eval('table.streaming-runs tbody tr', (rows) => rows.map((r) => r.dataset.runId));
      expect(runIds.length >= 1, `runs: ${runIds}`);
      await page.click(`table.streaming-runs tr[data-run-id="${runIds[0]}"] td:first-child a`);
      await page.waitForSelector('table.streaming-batches tbody tr');
      await page.waitForSelector('.streaming-run .chart canvas');
      const charts = await page.$$('.streaming-run .chart');
      const canvases = await page.$$('.streaming-run .chart canvas');
      expect(charts.length >= 4 && canvases.length === charts.length, `${canvases.length} of ${charts.length} charts drawn`);
      const rows = (await page.$$('table.streaming-batches tbody tr')).length;
      expect(rows === 8, `the batch table has the log's 8 batches: ${rows}`);
      expect(new URL(page.url()).pathname === `/logs/${STREAMING_LOG}/streaming/${runIds[0]}`, `the run's address: ${page.url()}`);
      await page.getByRole('button', { name: /dark theme/ }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await page.waitForSelector('.streaming-run .chart canvas');
      await page.screenshot({ path: join(shots, 'streaming-run-dark.png'), fullPage: true });
      await page.getByRole('button', { name: /light theme/ }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme !== 'dark');
      await page.waitForSelector('.streaming-run .chart canvas');
    });
    // The same pages in a report opened from a file: the figures are the analysis document's.
    const streamingReport = join(shots, 'streaming-report.html');
    execFileSync(sf, ['analyze', '--format', 'html', '--output', streamingReport, join(streamingDir, STREAMING_LOG)]);
    await test('streaming-report-offline', async (page) => {
      await page.goto(`file://${streamingReport}#/overview`);
      await page.waitForSelector('.kpi');
      await page.getByRole('link', { name: 'Streaming', exact: true }).click();
      await page.waitForSelector('table.streaming-runs tbody tr');
      await page.click('table.streaming-runs tbody tr td:first-child a');
      await page.waitForSelector('.streaming-run .chart canvas');
      const rows = (await page.$$('table.streaming-batches tbody tr')).length;
      expect(rows === 8, `the report's batch table has the log's 8 batches: ${rows}`);
      expect(/^#\/streaming\/./.test(new URL(page.url()).hash), `the run's address: ${page.url()}`);
    }, { offline: true });
  } else {
    console.log(`skip  streaming: ${join(streamingDir, STREAMING_LOG)} is absent`);
  }

  // Spark Connect: the nav entry only for a log with Connect operations; the operations costliest
  // first as the analysis says, one operation's page with its phases and links to its SQL
  // executions and stage attempts; the same pages in a report opened from a file.
  if (connectBase) {
    const name = connect.log.split('/').pop();
    const doc = JSON.parse(execFileSync(sf, ['analyze', '-q', '-f', 'json', connect.log]).toString());
    const ranked = doc.connect.map((c, i) => ({ cost: c.cost, id: doc.connectOperations[i].operationId }))
      .sort((a, b) => b.cost - a.cost).map((o) => o.id);
    const costliest = doc.connectOperations.find((op) => op.operationId === ranked[0]);
    const checkConnect = async (page) => {
      await page.getByRole('link', { name: 'Connect', exact: true }).click();
      await page.waitForSelector('table.connect-operations tbody tr');
      const ids = await page.$$eval('table.connect-operations tbody tr', (rows) => rows.map((r) => r.dataset.operationId));
      expect(ids.join() === ranked.join(), `the operations, costliest first: ${ids} (the analysis: ${ranked})`);
      const sessions = (await page.$$('table.connect-sessions tbody tr')).length;
      expect(sessions === doc.connectSessions.length, `sessions: ${sessions}`);
      await page.click(`table.connect-operations tr[data-operation-id="${ranked[0]}"] td:first-child a`);
      await page.waitForSelector('table.connect-phases');
      const sqlLinks = await page.$$eval('.connect-operation a.chip', (as) => as.map((a) => a.textContent));
      const attempts = doc.connect[doc.connectOperations.indexOf(costliest)].stageAttempts;
      expect(sqlLinks.length === costliest.sqlExecutionIds.length + attempts.length,
             `links to ${costliest.sqlExecutionIds.length} executions and ${attempts.length} stage attempts: ${sqlLinks}`);
      const stage = attempts[0];
      await page.click(`.connect-operation a.chip:text-is("${stage.stageId}.${stage.attemptId}")`);
      await page.waitForSelector('.stage');
    };
    await test('connect', async (page) => {
      await page.goto(`${base}/logs/${LOG}/overview`);
      await page.waitForSelector('.kpi');
      expect(await page.getByRole('link', { name: 'Connect', exact: true }).count() === 0,
             'an application without Spark Connect has no Connect page');
      await page.goto(`${connectBase}/logs/${encodeURIComponent(name)}/overview`);
      await page.waitForSelector('.kpi');
      await checkConnect(page);
    });
    const connectReport = join(shots, 'connect-report.html');
    execFileSync(sf, ['analyze', '--format', 'html', '--output', connectReport, connect.log]);
    await test('connect-report-offline', async (page) => {
      await page.goto(`file://${connectReport}#/overview`);
      await page.waitForSelector('.kpi');
      await checkConnect(page);
    }, { offline: true });
  } else {
    console.log(`skip  connect: ${connect.skip}`);
  }

  await test('history-server-fetch', async (page) => {
    await page.goto(base + '/');
    await page.getByRole('button', { name: /Fetch from Spark History Server/ }).click();
    await page.fill('input[name=baseUrl]', `${base}/`);
    await page.fill('input[name=appId]', 'local-999');
    await page.click('button[type=submit]');
    await page.waitForSelector('.shs-error[data-code="not-found"]');
    expect(await page.inputValue('input[name=appId]') === 'local-999', 'the values stay after a failure');
    expect(await page.getAttribute('button.disclosure', 'aria-expanded') === 'true', 'the disclosure stays open');
    await page.fill('input[name=appId]', FETCHED_APP);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/logs\/~h\d+\/overview/);
    await page.waitForSelector('.kpi');
    await page.goto(base + '/');
    await page.getByRole('button', { name: /Fetch from Spark History Server/ }).click();
    expect(await page.inputValue('input[name=appId]') === FETCHED_APP, 'the last values persist');
  });

  await test('upload-not-a-log', async (page) => {
    await page.goto(base + '/');
    await page.setInputFiles('[data-testid=file-input]',
                             { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an event log\n') });
    await page.waitForSelector('.error-page');
    expect(/notes\.txt/.test(await page.textContent('.error-page')), 'the error names the file');
  });

  await test('upload-in-application-list', async (page) => {
    await page.goto(base + '/');
    await page.setInputFiles('[data-testid=file-input]', join(corpus, 'spark2-eventlog.zstd'));
    await page.waitForURL(/\/logs\/~u\d+\/overview/);
    await page.waitForSelector('.kpi');
    const uploaded = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    await page.goto(base + '/');
    // First in the list (uploads come before the log directory's), marked, and opened from there.
    const first = 'table.grid tbody tr:first-child';
    await page.waitForSelector(`${first} .source[data-source="upload"]`);
    expect(await page.getAttribute(`${first} a`, 'href') === `/logs/${encodeURIComponent(uploaded)}/overview`,
           `the first row opens the upload: ${await page.getAttribute(`${first} a`, 'href')}`);
    expect(/uploaded/.test(await page.textContent(first)), 'the row says uploaded');
    expect(await page.$(`.recent a[href="/logs/${encodeURIComponent(uploaded)}/overview"]`) !== null, 'Recent still lists it');
    await page.click(`${first} a`);
    await page.waitForURL(/\/logs\/~u\d+\/overview/);
    await page.waitForSelector('.kpi');
    // Searched with the directory's logs: the same file, uploaded and listed, two rows.
    await page.goto(base + '/');
    await page.fill('input[type=search]', 'spark2-eventlog');
    await page.waitForFunction(() => document.querySelectorAll('table.grid tbody tr').length === 2);
    const sources = await page.$$eval('table.grid tbody tr', (rows) => rows.map((r) => r.querySelector('.source')?.dataset.source ?? 'log-dir'));
    expect(sources.join() === 'upload,log-dir', `the upload first, then the log directory's: ${sources}`);
  });

  const report = join(shots, 'report.html');
  execFileSync(sf, ['analyze', '--format', 'html', '--output', report, join(corpus, FINDINGS_LOG)]);
  await test('html-report-offline', async (page) => {
    await page.goto(`file://${report}#/findings`);
    await page.waitForSelector('.group-head');
    await page.click('.filters button:has(.band-low)');
    await page.reload();
    await page.waitForSelector('.filters');
    expect((await pressedBands(page)).join() === 'low', 'the report keeps its filter in the URL');
    await page.click('.group-head');
    await page.click('.group-body a.chip');
    await page.waitForSelector('.stage');
    await page.getByRole('link', { name: 'SQL plans', exact: true }).click();
    await page.click('table.grid tbody a');
    await page.waitForSelector('svg g.node');
  }, { offline: true });

  const comparePage = join(shots, 'compare.html');
  execFileSync(sf, ['compare', '-q', '--format', 'html', '--output', comparePage, join(codecs, 'local-1651694304852.lz4'),
                    join(codecs, 'local-1651694304852.snappy')]);
  await test('compare-html-offline', async (page) => {
    await page.goto(`file://${comparePage}`);
    await page.waitForSelector('.banner');
    expect((await page.$$('table.pairs tbody tr')).length > 0, 'the pairs');
    await page.click('button[data-plan]');
    await page.waitForSelector('.plan-diff svg g.node');
    expect(/compare --format html/.test(await page.textContent('.pins')), 'the pin panel says pins need serve');
  }, { offline: true });
} finally {
  await browser.close();
  for (const child of servers) child.kill('SIGTERM');
  if (pgSchema && pgUrl) {
    try { execFileSync('psql', ['-q', pgUrl, '-c', `DROP SCHEMA ${pgSchema} CASCADE`]); } catch { /* reported above */ }
  }
  rmSync(work, { recursive: true, force: true });
}
if (failed > 0) console.log(serverLog.split('\n').slice(-40).join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
