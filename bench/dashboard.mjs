// make bench-dashboard (and the end of make bench): the dashboard in a real browser (Debian's
// chromium, playwright-core from web/node_modules) against `sparkforensics serve` on a directory
// holding one large log, in one run: the time until the findings board is drawn with its first
// group when the log has to be read (from the page's address to the group on screen: the page
// starts the parse, polls its progress and renders), the same board again once the log is in
// memory (a reload), a stage's drill-down with its first page of tasks and histograms (the task
// table read from the log), and requests/s of the dashboard's API under a bounded load from this
// process (fixed clients, fixed seconds, keep-alive) on loopback. Nothing is asserted.
//
//   node bench/dashboard.mjs SPARKFORENSICS LOG_DIR
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import http from 'node:http';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [sf, logDir] = process.argv.slice(2);
const CHROMIUM = process.env.SF_CHROMIUM ?? '/usr/bin/chromium';
const WAIT_MS = 900_000;  // the first board of a big log on a busy machine
const LOAD_SECONDS = 5;
const LOAD_CLIENTS = 4;

const log = readdirSync(logDir)[0];
const logMb = statSync(join(logDir, log)).size / 1e6;
const server = spawn(sf, ['serve', '--log-dir', logDir, '--port', '0', '--rescan-interval', '0'],
                     { stdio: ['ignore', 'pipe', 'ignore'] });
const base = await new Promise((resolve, reject) => {
  createInterface({ input: server.stdout }).once('line', (line) => {
    const m = /http:\/\/([^/]+)\//.exec(line);
    m ? resolve(`http://${m[1]}`) : reject(new Error(`serve said: ${line}`));
  });
  server.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
});

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const boardUrl = `${base}/logs/${encodeURIComponent(log)}/findings`;
  const firstBoard = await timed(async () => {
    await page.goto(boardUrl);
    await page.waitForSelector('.group-head', { timeout: WAIT_MS });
  });
  const findings = await page.evaluate(() => document.querySelectorAll('.group-head').length);
  const againBoard = await timed(async () => {
    await page.reload();
    await page.waitForSelector('.group-head', { timeout: WAIT_MS });
  });
  const stage = await largestStage();
  const drillDown = await timed(async () => {
    await page.goto(`${base}/logs/${encodeURIComponent(log)}/stages/${stage.stageId}/${stage.attemptId}`);
    await page.waitForSelector('table.tasks tbody tr', { timeout: WAIT_MS });
    await page.waitForSelector('.dist[data-shows=histogram] canvas', { timeout: WAIT_MS });
  });
  const api = `/api/sf/v1/logs/${encodeURIComponent(log)}`;
  const load = await requestsPerSecond([
    '/api/sf/v1/applications?offset=0&limit=50&q=',
    `${api}/stages/${stage.stageId}/${stage.attemptId}`,
    `${api}/stages/${stage.stageId}/${stage.attemptId}/tasks?offset=0&length=50&sortBy=durationMs&order=desc&bins=30`,
    `${api}/timeline`,
  ]);

  const rss = peakRssMiB(server.pid);
  console.log(`dashboard: chromium against serve on one log of ${logMb.toLocaleString('en-US', { maximumFractionDigits: 0 })} MB`);
  console.log(`  first findings board (the log read by the page's parse)   ${seconds(firstBoard)}  (${(logMb / (firstBoard / 1000)).toFixed(0)} MB/s, ${findings} groups)`);
  console.log(`  the board again (a reload; the log in memory)             ${seconds(againBoard)}`);
  console.log(`  drill-down of the largest stage (${stage.numTasks.toLocaleString('en-US')} tasks): first page and histograms  ${seconds(drillDown)}`);
  console.log(`  dashboard API, ${LOAD_CLIENTS} keep-alive clients for ${LOAD_SECONDS} s (the list, a stage, its tasks, the timeline)  ${load.toFixed(0)} requests/s`);
  console.log(`  serve peak RSS ${rss.toFixed(0)} MiB`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
}

async function timed(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function seconds(ms) { return `${(ms / 1000).toFixed(2)} s`.padStart(9); }

async function largestStage() {
  const doc = await getJson(`/api/sf/v1/logs/${encodeURIComponent(log)}/analysis`);
  return doc.stages.reduce((a, b) => (b.numTasks > a.numTasks ? b : a));
}

function getJson(path, agent) {
  return new Promise((resolve, reject) => {
    http.get(base + path, { agent }, (response) => {
      const chunks = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks)))
                                : reject(new Error(`GET ${path}: ${response.statusCode}`))));
    }).on('error', reject);
  });
}

async function requestsPerSecond(paths) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD_CLIENTS });
  const end = performance.now() + LOAD_SECONDS * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
    for (let i = client; performance.now() < end; i++) {
      await getJson(paths[i % paths.length], agent);
      done++;
    }
  }));
  agent.destroy();
  return done / LOAD_SECONDS;
}

function peakRssMiB(pid) {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
}
