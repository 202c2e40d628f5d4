// The REST requests Spark's own UI JavaScript makes, recorded from the real History Server's
// pages in a real browser (Debian's chromium, driven by playwright-core from web/node_modules):
// historypage.js, stagepage.js (its DataTables task table, sorted by every column both ways,
// searched, paged, shown whole), executorspage.js, environmentpage.js, and the SQL pages
// (allexecutionspage.js's sqlTable, sorted, searched, filtered by status, paged; executionpage.js).
// The oracle then sends each recorded request, byte for byte, to both servers (test_spark_ui.py).
//
//   node spark_ui_requests.mjs HISTORY_SERVER_ORIGIN PAGES_JSON OUT_JSON
//
// PAGES_JSON: [{"path": "/history/<app>/stages/stage/?id=0&attempt=0", "kind": "stage"}, ...]
// OUT_JSON: {"requests": [{"page": path, "request": "applications/...?..."}],
//            "pages": [{"path", "kind", "requests", "error"?}]}
// The request is the URL's part after /api/v1/, exactly as the browser sent it. A page that
// fails to load or whose table never answers is reported with its error, never silently dropped.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [origin, pagesPath, outPath] = process.argv.slice(2);
const CHROMIUM = process.env.SF_CHROMIUM ?? '/usr/bin/chromium';
const pages = JSON.parse(readFileSync(pagesPath, 'utf8'));
const API = '/api/v1/';
const ANSWER_WAIT_MS = 20_000;  // one table request: the History Server may replay the log first
// The task table's columns sorted on a page that does not sort by every one: a number, a text, a
// status and a time whose indices hold negated values for unsuccessful tasks.
const SOME_COLUMNS = ['Index', 'Executor ID', 'Status', 'Duration', 'GC Time', 'Errors'];
const EXPECTED = {
  history: /\/api\/v1\/applications$/,
  stage: /\/stages\/\d+\/\d+\/taskTable$/,
  executors: /\/allexecutors$/,
  environment: /\/environment$/,
  sql: /\/sql\/sqlTable$/,
  execution: /\/sql\/\d+$/,
};

const browser = await chromium.launch({
  executablePath: CHROMIUM, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-default-apps'],
});
const recorded = [];
const report = [];
try {
  for (const page of pages) report.push(await visit(page));
} finally {
  await browser.close();
}
writeFileSync(outPath, JSON.stringify({ requests: recorded, pages: report }, null, 1));

async function visit({ path, kind, everyColumn = true }) {
  const context = await browser.newContext();
  const tab = await context.newPage();
  const before = recorded.length;
  tab.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(API)) recorded.push({ page: path, request: url.pathname.slice(API.length) + url.search });
  });
  const entry = { path, kind };
  try {
    // The request each page's script must send; waited for, since a page can send it after the
    // network was idle for a while (its scripts run late on a busy machine).
    const sent = tab.waitForResponse((r) => EXPECTED[kind].test(new URL(r.url()).pathname), { timeout: 120_000 });
    sent.catch(() => undefined);  // a failed goto reports first; this one must not go unhandled
    await tab.goto(origin + path, { waitUntil: 'networkidle', timeout: 120_000 });
    await sent;
    if (kind === 'stage') await driveTable(tab, '#active-tasks-table', everyColumn, stageSearches);
    if (kind === 'sql') await driveTable(tab, '#sql-table', true, sqlSearches, sqlStatusFilter);
  } catch (error) {
    entry.error = String(error.message ?? error).split('\n')[0];
  }
  entry.requests = recorded.length - before;
  await context.close();
  return entry;
}

// Every column's order both ways (or those of SOME_COLUMNS), searches, the next page and the whole
// table: each makes the page's own JavaScript send one request (DataTables' server-side mode).
async function driveTable(tab, selector, everyColumn, searches, ...more) {
  await tab.waitForFunction((s) => window.jQuery && jQuery.fn.dataTable.isDataTable(s), selector, { timeout: ANSWER_WAIT_MS });
  const columns = await tab.evaluate(([s, some]) => jQuery(s).DataTable().settings()[0].aoColumns
    .map((c, i) => (c.bSortable && (some === null || some.includes(c.sName)) ? i : -1)).filter((i) => i >= 0),
                                     [selector, everyColumn ? null : SOME_COLUMNS]);
  for (const column of columns) {
    for (const direction of ['asc', 'desc']) {
      await redraw(tab, selector, (s, [c, d]) => jQuery(s).DataTable().order([c, d]).draw(), [column, direction]);
    }
  }
  await redraw(tab, selector, (s) => jQuery(s).DataTable().order([0, 'asc']).page.len(5).draw());
  await redraw(tab, selector, (s) => jQuery(s).DataTable().page('next').draw('page'));
  await redraw(tab, selector, (s) => jQuery(s).DataTable().page.len(-1).draw());
  for (const value of await searches(tab, selector)) {
    await redraw(tab, selector, (s, v) => jQuery(s).DataTable().search(v).draw(), value);
  }
  await redraw(tab, selector, (s) => jQuery(s).DataTable().search('').draw());
  for (const step of more) await step(tab, selector);
}

// Runs `action` in the page and waits for the table's request to be answered.
async function redraw(tab, selector, action, argument) {
  const answered = tab.waitForResponse((r) => new URL(r.url()).pathname.startsWith(API), { timeout: ANSWER_WAIT_MS });
  await tab.evaluate(([s, code, a]) => new Function('s', 'a', `return (${code})(s, a)`)(s, a),
                     [selector, action.toString(), argument]);
  await answered;
}

// What a person would type: a status, an executor id and a host from the table, a duration's unit.
async function stageSearches(tab, selector) {
  const first = await tab.evaluate((s) => jQuery(s).DataTable().row(0).data() ?? null, selector);
  const values = ['SUCCESS', 'ms', 'zzz-nothing'];
  if (first) values.push(String(first.executorId), String(first.host));
  return values;
}

async function sqlSearches() {
  return ['COMPLETED', 'collect', '1', 'zzz-nothing'];
}

async function sqlStatusFilter(tab) {
  for (const status of ['FAILED', 'COMPLETED', '']) {
    const answered = tab.waitForResponse((r) => new URL(r.url()).pathname.startsWith(API), { timeout: ANSWER_WAIT_MS });
    await tab.selectOption('#status-filter', status);
    await answered;
  }
}
