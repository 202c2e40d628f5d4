// A real MCP client against `sparkforensics mcp`: the official TypeScript SDK starts the server
// over stdio, lists the tools, calls every one of them on generated logs (and on the real logs
// of ../shared/corpus when it is there), validates every structuredContent against the tool's
// declared outputSchema (the SDK client does, and so does this script with ajv), and asserts on
// what the answers say.
//
// Usage: node client_test.mjs SPARKFORENSICS SF_LOGGEN [CORPUS_DIR]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [sparkforensics, loggen, corpusArg] = process.argv.slice(2);
if (!sparkforensics || !loggen) {
  console.error('usage: node client_test.mjs SPARKFORENSICS SF_LOGGEN [CORPUS_DIR]');
  process.exit(2);
}

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed += 1;
    console.log(`ok   ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${name}\n     ${String(error && error.stack ? error.stack : error).split('\n').slice(0, 6).join('\n     ')}`);
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-mcp-client-'));
const logDir = path.join(work, 'logs');
fs.mkdirSync(logDir);
const generate = (...args) => execFileSync(loggen, [...args, '--out', logDir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const smallLog = path.basename(generate('--preset', 'small', '--seed', '1'));
const otherLog = path.basename(generate('--preset', 'small', '--seed', '2', '--codec', 'zstd'));
const bigLog = path.basename(generate('--preset', 'demo', '--scale', '3'));

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map();

async function connect(args) {
  const client = new Client({ name: 'sparkforensics-client-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: sparkforensics, args: ['mcp', ...args], stderr: 'inherit' });
  await client.connect(transport);
  return client;
}

// Calls a tool; a success is validated against the declared outputSchema here too.
async function call(client, name, args, options) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  assert.ok(Array.isArray(result.content) && result.content[0].type === 'text', `${name}: a text content block`);
  if (!result.isError) {
    const validate = validators.get(name);
    assert.ok(validate, `${name}: declared an outputSchema`);
    assert.ok(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
  }
  return result;
}
const textOf = (result) => result.content.map((c) => c.text).join('\n');

const client = await connect(['--log-dir', logDir, '--store', path.join(work, 'results.db')]);
const logMessages = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logMessages.push(n.params));
const called = new Set();
const callCounted = async (name, args, options) => {
  called.add(name);
  return call(client, name, args, options);
};

await check('initialize negotiated a version and the server says who it is', async () => {
  assert.equal(client.getServerVersion().name, 'sparkforensics');
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().logging);
});

let tools = [];
await check('tools/list: thirteen tools, each with an input and an output schema that compile', async () => {
  ({ tools } = await client.listTools());
  assert.equal(tools.length, 13);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema.type, 'object', tool.name);
    validators.set(tool.name, ajv.compile(tool.outputSchema));
    ajv.compile(tool.inputSchema);
  }
});

let analysisId;
let firstFinding;
await check('list_applications lists the generated logs', async () => {
  const result = await callCounted('list_applications', {});
  const paths = result.structuredContent.applications.map((a) => a.path);
  for (const log of [smallLog, otherLog, bigLog]) assert.ok(paths.includes(log), `${log} in ${paths}`);
  for (const app of result.structuredContent.applications) assert.equal(app.status, 'finished');
});

await check('analyze_event_log with progress and log messages', async () => {
  await client.setLoggingLevel('info');
  const progress = [];
  const result = await callCounted('analyze_event_log', { path: smallLog }, { onprogress: (p) => progress.push(p) });
  assert.ok(!result.isError, textOf(result));
  const out = result.structuredContent;
  analysisId = out.analysisId;
  assert.ok(out.counts.stageAttempts > 0);
  assert.equal(out.app.finished, true);
  assert.ok(out.counts.findings > 0, 'the generated log has findings');
  assert.ok(textOf(result).includes(out.app.id));
  assert.ok(progress.length > 0, 'progress notifications');
  assert.ok(logMessages.some((m) => m.level === 'info' && String(m.data).includes('reading')), JSON.stringify(logMessages));
});

await check('get_findings pages and filters', async () => {
  const all = await callCounted('get_findings', { analysisId, limit: 100 });
  const findings = all.structuredContent.findings;
  assert.ok(findings.length > 0);
  firstFinding = findings[0];
  const page = await callCounted('get_findings', { analysisId, limit: 1, offset: 1 });
  assert.equal(page.structuredContent.findings.length, Math.min(1, findings.length - 1));
  if (findings.length > 1) assert.equal(page.structuredContent.findings[0].id, findings[1].id);
  const band = firstFinding.impactBand;
  const banded = await callCounted('get_findings', { analysisId, impactBand: [band], limit: 100 });
  assert.equal(banded.structuredContent.findings.length, findings.filter((f) => f.impactBand === band).length);
});

await check('explain_finding gives evidence, formula and recommendation', async () => {
  const result = await callCounted('explain_finding', { analysisId, findingId: firstFinding.id });
  assert.equal(result.structuredContent.finding.id, firstFinding.id);
  assert.equal(result.structuredContent.recommendation, firstFinding.recommendation);
  assert.deepEqual(result.structuredContent.formula.evidence, firstFinding.evidence);
  assert.ok(textOf(result).includes(firstFinding.recommendation));
});

await check('get_economics: the time split, the critical path within the wall-clock, the what-if curve, the cost', async () => {
  const result = await callCounted('get_economics', { analysisId, limit: 3 });
  const e = result.structuredContent;
  assert.ok(e.timeSplit.driverOnlyMs + e.timeSplit.executorMs <= e.timeSplit.durationMs + 1e-6);
  assert.ok(e.criticalPath.lengthMs <= e.criticalPath.wallClockMs, JSON.stringify(e.criticalPath));
  assert.ok(e.whatIf.curve.some((p) => p.executors === e.whatIf.todayExecutors));
  assert.ok(e.cost.total > 0 && e.costliest.stages.length <= 3);
  assert.ok(textOf(result).includes('Where the time and the money go'));
});

await check('streaming_queries on a batch log: no run, and an unknown runId says how to list them', async () => {
  const result = await callCounted('streaming_queries', { analysisId });
  assert.equal(result.structuredContent.page.total, 0);
  assert.deepEqual(result.structuredContent.runs, []);
  assert.ok(textOf(result).includes('no Structured Streaming query'), textOf(result));
  const unknown = await callCounted('streaming_queries', { analysisId, runId: 'no-such-run' });
  assert.ok(unknown.isError && textOf(unknown).includes('without runId lists them'), textOf(unknown));
});

await check('connect_operations on a batch log: no operation, and an unknown operationId says how to list them', async () => {
  const result = await callCounted('connect_operations', { analysisId });
  assert.equal(result.structuredContent.page.total, 0);
  assert.deepEqual(result.structuredContent.operations, []);
  assert.ok(textOf(result).includes('no Spark Connect operation'), textOf(result));
  const unknown = await callCounted('connect_operations', { analysisId, operationId: 'no-such-operation' });
  assert.ok(unknown.isError && textOf(unknown).includes('without operationId lists them'), textOf(unknown));
});

let slowestStage;
await check('get_slowest for stages, jobs and sql', async () => {
  for (const kind of ['stages', 'jobs', 'sql']) {
    const result = await callCounted('get_slowest', { analysisId, kind, limit: 5 });
    const items = result.structuredContent.items;
    assert.ok(items.length > 0, kind);
    for (let i = 1; i < items.length; i++) assert.ok(items[i - 1].durationMs >= items[i].durationMs, kind);
    if (kind === 'stages') slowestStage = items[0];
  }
});

await check('get_stage of the slowest stage', async () => {
  const result = await callCounted('get_stage', { analysisId, stageId: slowestStage.stageIds[0] });
  assert.equal(result.structuredContent.stage.durationMs, slowestStage.durationMs);
  assert.ok(result.structuredContent.stage.quantiles.durationMs.count > 0);
});

await check('get_sql_execution of the slowest execution', async () => {
  const slowest = (await call(client, 'get_slowest', { analysisId, kind: 'sql', limit: 1 })).structuredContent.items[0];
  const result = await callCounted('get_sql_execution', { analysisId, executionId: slowest.sqlExecutionId });
  assert.ok(result.structuredContent.execution.plan.length > 0);
  assert.equal(result.structuredContent.execution.durationMs, slowest.durationMs);
});

await check('compare_runs of two seeds of one job', async () => {
  const result = await callCounted('compare_runs', {
    baseline: { analysisId },
    candidate: { path: otherLog },
    normalizePath: ['run-[0-9]+'],
    budgets: ['wallClock=+1000%'],
  });
  const c = result.structuredContent.comparison;
  assert.ok(['ok', 'low', 'insufficient'].includes(c.confidence));
  assert.ok(c.metricDeltas.length > 0);
  assert.deepEqual(c.normalizePatterns, ['run-[0-9]+']);
  assert.equal(result.structuredContent.budgetExceeded, false);
});

let resultIds = [];
await check('store_ingest and verdict (history and run mode)', async () => {
  for (const [log, round, role] of [[smallLog, 1, 'baseline'], [otherLog, 1, 'candidate']]) {
    const result = await callCounted('store_ingest', { path: log, revision: 'r1', variant: role, runKey: 'k1', round, slot: role === 'baseline' ? 1 : 2 });
    assert.ok(!result.isError, textOf(result));
    resultIds.push(result.structuredContent.resultId);
  }
  const history = await callCounted('verdict', { mode: 'history', target: resultIds[1] });
  assert.ok(!history.isError, textOf(history));
  assert.equal(history.structuredContent.document.mode, 'history');
  const run = await callCounted('verdict', { mode: 'run', runKey: 'k1', profile: 'variants', baseline: 'baseline' });
  assert.ok(!run.isError, textOf(run));
  assert.ok(run.structuredContent.evaluationTotal > 0 || run.structuredContent.document.failedInvariants.length > 0);
});

await check('errors are tool errors an assistant can act on', async () => {
  const outside = await call(client, 'analyze_event_log', { path: '/etc/passwd' });
  assert.equal(outside.isError, true);
  assert.match(textOf(outside), /outside the log directory/);
  const badUrl = await call(client, 'analyze_event_log', { historyServer: { baseUrl: 'http://u:p@shs/', appId: 'local-1' } });
  assert.equal(badUrl.isError, true);
  assert.match(textOf(badUrl), /\[invalid-base-url\]/);
  const badArg = await call(client, 'get_slowest', { analysisId, kind: 'executors' });
  assert.equal(badArg.isError, true);
  assert.match(textOf(badArg), /kind/);
});

await check('a cancelled long analysis stops and the server still answers', async () => {
  const controller = new AbortController();
  let progressSeen = 0;
  const pending = client.callTool({ name: 'analyze_event_log', arguments: { path: bigLog } }, undefined, {
    signal: controller.signal,
    onprogress: () => {
      progressSeen += 1;
      if (progressSeen === 1) controller.abort('test');
    },
  });
  await assert.rejects(pending);
  await client.ping();
  // The stopped load was not kept: analyzing again reads the log again, reporting progress.
  const again = [];
  const result = await call(client, 'analyze_event_log', { path: bigLog }, { onprogress: (p) => again.push(p) });
  assert.ok(!result.isError, textOf(result));
  assert.ok(again.length > 1, `progress on the second read: ${again.length}`);
});

await check('every tool was called', async () => {
  assert.deepEqual([...called].sort(), tools.map((t) => t.name).sort());
});
await client.close();

// --- The real logs of the shared corpus ---------------------------------------------------
const corpus = corpusArg || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared/corpus');
const events = path.join(corpus, 'spark-events');
if (!fs.existsSync(events)) {
  console.log(`SKIP corpus part: ${events} not found (check out ../shared/corpus beside the repository)`);
} else {
  const real = await connect(['--log-dir', events, '--store', path.join(work, 'corpus.db')]);
  const expected = JSON.parse(fs.readFileSync(path.join(corpus, 'history-server-expectations', 'application_list_json_expectation.json'), 'utf8'));
  let listed = [];
  await check('corpus: list_applications names the apps as the History Server does', async () => {
    const result = await call(real, 'list_applications', { limit: 100 });
    listed = result.structuredContent.applications.filter((a) => a.status !== 'unreadable');
    assert.ok(listed.length >= 10, `${listed.length} readable logs`);
    let compared = 0;
    for (const app of expected) {
      const ours = listed.find((a) => a.appId === app.id);
      if (!ours) continue;
      assert.equal(ours.appName, app.name, app.id);
      compared += 1;
    }
    assert.ok(compared >= 5, `${compared} apps compared with the History Server's list`);
  });
  await check('corpus: every readable log analyzes, its findings page and its slowest stage opens', async () => {
    for (const app of listed) {
      const analyzed = await call(real, 'analyze_event_log', { path: app.path });
      assert.ok(!analyzed.isError, `${app.path}: ${textOf(analyzed)}`);
      const id = analyzed.structuredContent.analysisId;
      assert.equal(analyzed.structuredContent.app.id, app.appId);
      const findings = await call(real, 'get_findings', { analysisId: id, limit: 5 });
      assert.equal(findings.structuredContent.page.total, analyzed.structuredContent.counts.findings);
      const slowest = await call(real, 'get_slowest', { analysisId: id, kind: 'stages', limit: 1 });
      for (const item of slowest.structuredContent.items) {
        const stage = await call(real, 'get_stage', { analysisId: id, stageId: item.stageIds[0] });
        assert.ok(!stage.isError, textOf(stage));
      }
    }
  });
  await check('corpus: compare_runs of two real logs', async () => {
    const [a, b] = listed;
    const result = await call(real, 'compare_runs', { baseline: { path: a.path }, candidate: { path: b.path } });
    assert.ok(!result.isError, textOf(result));
    assert.ok(result.structuredContent.comparison.baseline);
  });
  await real.close();
}

// The corpus's Structured Streaming log (Spark 3.1, Kafka, 8 batches): the runs, then one run's
// batches a page at a time, as the analysis document has them.
const streamingDir = path.join(corpus, 'apache__spark/sql/core/src/test/resources/spark-events');
const streamingLog = 'local-1596020211915';
if (!fs.existsSync(path.join(streamingDir, streamingLog))) {
  console.log(`SKIP streaming part: ${path.join(streamingDir, streamingLog)} not found`);
} else {
  const streaming = await connect(['--log-dir', streamingDir]);
  const doc = JSON.parse(execFileSync(sparkforensics, ['analyze', '-q', '-f', 'json', path.join(streamingDir, streamingLog)],
                                      { encoding: 'utf8', maxBuffer: 1 << 28 }));
  await check('corpus: streaming_queries lists the runs and pages a run\'s batches as analyze -f json has them', async () => {
    const listed = await call(streaming, 'streaming_queries', { path: streamingLog });
    assert.ok(!listed.isError, textOf(listed));
    const runs = listed.structuredContent.runs;
    assert.equal(runs.length, doc.streaming.length);
    assert.ok(runs.length >= 1);
    assert.deepEqual(runs[0].summary, doc.streaming[0]);
    const runId = runs[0].run.runId;
    const query = doc.streamingQueries.find((q) => q.runId === runId);
    assert.equal(runs[0].run.batches, query.batches.length);
    const first = await call(streaming, 'streaming_queries', { path: streamingLog, runId, limit: 5 });
    assert.equal(first.structuredContent.page.total, query.batches.length);
    assert.deepEqual(first.structuredContent.batches, query.batches.slice(0, 5));
    const rest = await call(streaming, 'streaming_queries',
                            { path: streamingLog, runId, offset: 5, limit: 500 });
    assert.deepEqual([...first.structuredContent.batches, ...rest.structuredContent.batches], query.batches);
    assert.equal(first.structuredContent.query.batches, undefined);
    assert.equal(first.structuredContent.query.runId, runId);
  });
  await streaming.close();
}

fs.rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
