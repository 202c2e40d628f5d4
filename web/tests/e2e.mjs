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
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';

const [sf, shots, corpusRoot] = process.argv.slice(2).map((p) => resolve(p));
const CHROMIUM = process.env.SF_CHROMIUM ?? '/usr/bin/chromium';
const corpus = join(corpusRoot, 'NVIDIA__spark-rapids-tools/core/src/test/resources/spark-events-profiling');
if (!existsSync(corpus)) { console.log(`SKIP: the corpus folder ${corpus} is absent`); process.exit(77); }
if (!existsSync(CHROMIUM)) { console.log(`SKIP: ${CHROMIUM} is absent (scripts/install-deps.sh chromium)`); process.exit(77); }
mkdirSync(shots, { recursive: true });
for (const old of readdirSync(shots)) rmSync(join(shots, old), { force: true });  // this run's only

const LOG = 'rp_sql_eventlog.zstd';            // 4 findings, 1 SQL execution, 5 stages
const FETCHED_APP = 'local-1624371906627';     // eventlog_dsv2.zstd, fetched back from serve itself
const work = mkdtempSync(join(tmpdir(), 'sf-dashboard-e2e-'));

// --- The server, over the corpus folder in place.
const server = spawn(sf, ['serve', '--log-dir', corpus, '--port', '0', '--upload-dir', work, '--rescan-interval', '0'],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
let serverLog = '';
server.stderr.on('data', (d) => { serverLog += d; });
const port = await new Promise((res, rej) => {
  const lines = createInterface({ input: server.stdout });
  lines.once('line', (line) => { const m = /:(\d+)\//.exec(line); m ? res(Number(m[1])) : rej(new Error(line)); });
  server.once('exit', (code) => rej(new Error(`serve exited ${code}: ${serverLog}`)));
});
const base = `http://127.0.0.1:${port}`;

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

const findingsUrl = `${base}/logs/${LOG}/findings`;
const pressedBands = (page) => page.$$eval('.filters button[aria-pressed="true"] .band', (els) => els.map((e) => e.textContent));

try {
  await test('corpus-log-findings', async (page) => {
    await page.goto(base + '/');
    await page.click(`a[href="/logs/${LOG}/overview"]`);
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
    await page.click('.filters button[aria-pressed="false"]:text-is("stageShape")');
    await page.waitForURL(/type=stageShape/);
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
    expect(/rp_sql/.test(page.url()) && (await pressedBands(page)).join() === 'low', `Back to the first log restores its filter: ${page.url()}`);
  });

  await test('stage-drilldown', async (page) => {
    await page.goto(`${base}/logs/${LOG}/stages`);
    await page.click('table.grid tbody a');
    await page.waitForSelector('.stage');
    expect(await page.isVisible('text=Task duration'), 'the duration distribution');
    expect((await page.$$('table.compact tbody tr')).length >= 2, 'per-executor and per-host rows');
    expect(await page.isVisible('canvas'), 'a chart');
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

  const report = join(shots, 'report.html');
  execFileSync(sf, ['analyze', '--format', 'html', '--output', report, join(corpus, LOG)]);
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
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
if (failed > 0) console.log(serverLog.split('\n').slice(-40).join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
