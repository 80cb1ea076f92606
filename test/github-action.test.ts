/**
 * The GitHub Action (action.yml) run locally, step by step, as a runner would run it: its
 * `${{ }}` expressions evaluated, each `run` step in bash with the step's env, outputs read
 * from $GITHUB_OUTPUT, `if:` conditions honoured, and `gh` replaced by a stand-in that lists
 * the main branch's runs and hands out their artifacts. The upload step (`uses:`) cannot run
 * here: what it is given is checked instead.
 */
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startReferenceServer, type ReferenceServer } from '../reference-server/src/index.js';
import { referenceConfig, repoRoot } from './support/target.js';

interface Step { readonly name?: string; readonly id?: string; readonly if?: string; readonly run?: string; readonly uses?: string; readonly env?: Record<string, string>; readonly with?: Record<string, string> }
interface Action { readonly inputs: Record<string, { readonly default?: string; readonly required?: boolean }>; readonly runs: { readonly steps: readonly Step[] } }

const action = parse(await readFile(join(repoRoot, 'action.yml'), 'utf8')) as Action;

/** What an expression sees: inputs, step outputs, and the parts of `github` and `runner` the action reads. */
interface Contexts {
  readonly inputs: Record<string, string>;
  readonly steps: Record<string, { outputs: Record<string, string> }>;
  readonly github: Record<string, string>;
  readonly runner: Record<string, string>;
}

/** GitHub's expression language, as far as action.yml uses it: paths, '' strings, ==, !=, &&, ||, always(). */
function evaluate(expr: string, ctx: Contexts): string | boolean {
  const or = expr.split('||').map((s) => s.trim());
  if (or.length > 1) return or.map((e) => evaluate(e, ctx)).find((v) => v !== '' && v !== false) ?? '';
  const and = expr.split('&&').map((s) => s.trim());
  if (and.length > 1) return and.every((e) => { const v = evaluate(e, ctx); return v !== '' && v !== false; });
  const cmp = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expr);
  if (cmp) return (evaluate(cmp[1]!, ctx) === evaluate(cmp[3]!, ctx)) === (cmp[2] === '==');
  if (expr === 'always()') return true;
  if (/^'.*'$/.test(expr)) return expr.slice(1, -1);
  const [root, ...path] = expr.split('.');
  let value: unknown = (ctx as unknown as Record<string, unknown>)[root!];
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '';
}

const substitute = (text: string, ctx: Contexts): string => text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e: string) => String(evaluate(e, ctx)));

interface StepRun { readonly name: string; readonly ran: boolean; readonly code: number; readonly out: string; readonly with?: Record<string, string> }

function bash(script: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-e', '-c', script], { env, timeout: 120_000 }, (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout + stderr }));
  });
}

/** Runs the action's steps with `inputs` (defaults filled in) as a runner would, in a workspace of its own. */
async function runAction(given: Record<string, string>, github: Record<string, string>, env: Record<string, string>): Promise<StepRun[]> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']));
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required) expect(inputs[name], name).not.toBe('');
  const temp = await mkdtemp(join(tmpdir(), 'restprobe-runner-'));
  const ctx: Contexts = { inputs, steps: {}, github: { token: 'test-token', ...github }, runner: { temp } };
  const runs: StepRun[] = [];
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    const name = substitute(step.name ?? `step ${i}`, ctx);
    const condition = step.if === undefined ? !failed : (/always\(\)/.test(step.if) || !failed) && evaluate(step.if, ctx) === true;
    if (!condition) {
      runs.push({ name, ran: false, code: 0, out: '' });
      continue;
    }
    if (step.uses !== undefined) {
      runs.push({ name, ran: true, code: 0, out: '', with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])) });
      continue;
    }
    const output = join(temp, `output-${i}`);
    await writeFile(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
    const ran = await bash(substitute(step.run!, ctx), { ...env, ...stepEnv, GITHUB_ACTION_PATH: repoRoot, GITHUB_OUTPUT: output, RUNNER_TEMP: temp });
    const outputs = Object.fromEntries((await readFile(output, 'utf8')).split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (step.id !== undefined) ctx.steps[step.id] = { outputs };
    runs.push({ name, ran: true, code: ran.code, out: ran.out });
    if (ran.code !== 0) failed = true;
  }
  return runs;
}

/**
 * A `gh` on PATH that knows the runs of the main branch (newest first) and which of them
 * kept an artifact (a folder to copy), as the GitHub CLI answers `run list` and `run download`.
 */
async function fakeGh(runs: readonly { databaseId: number; status: string; conclusion: string; artifact?: string }[]): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'restprobe-gh-'));
  const artifacts = Object.fromEntries(runs.filter((r) => r.artifact !== undefined).map((r) => [r.databaseId, r.artifact]));
  await writeFile(
    join(bin, 'gh'),
    `#!/usr/bin/env node
const [cmd, sub, ...rest] = process.argv.slice(2);
const runs = ${JSON.stringify(runs.map(({ artifact: _a, ...r }) => r))};
const artifacts = ${JSON.stringify(artifacts)};
if (cmd === 'run' && sub === 'list') { process.stdout.write(JSON.stringify(runs)); process.exit(0); }
if (cmd === 'run' && sub === 'download') {
  const dir = rest[rest.indexOf('--dir') + 1];
  const from = artifacts[rest[0]];
  if (from === undefined) { process.stderr.write('no valid artifacts found to download'); process.exit(1); }
  require('node:fs').cpSync(from, dir, { recursive: true });
  process.exit(0);
}
process.exit(2);
`.replace('#!/usr/bin/env node\n', '#!/usr/bin/env node\nconst require = (await import("node:module")).createRequire(import.meta.url);\n'),
  );
  // ESM for the top-level await above.
  await writeFile(join(bin, 'package.json'), '{"type":"module"}');
  await chmod(join(bin, 'gh'), 0o755);
  return bin;
}

const servers: ReferenceServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function server(faults: string[] = []): Promise<ReferenceServer> {
  const s = await startReferenceServer({ port: 0, faults });
  servers.push(s);
  return s;
}

const only = '--only ERR-problem-members,ERR-malformed-json-400 --seed 7';

describe('the GitHub Action, its steps run locally', () => {
  it('on main: installs (already here), skips the baseline, runs, passes, and hands the report folder to the upload', async () => {
    const clean = await server();
    const reports = join(await mkdtemp(join(tmpdir(), 'restprobe-ws-')), 'reports');
    const steps = await runAction({ 'base-url': clean.url, config: referenceConfig, 'report-dir': reports, args: only }, { event_name: 'push' }, { ...process.env, ...clean.secrets } as Record<string, string>);
    expect(steps.map((s) => [s.name, s.ran, s.code])).toEqual([
      ['Install restprobe', true, 0],
      ['Baseline from main', false, 0],
      ['restprobe run', true, 0],
      ['Keep the reports', true, 0],
    ]);
    expect(steps[0]!.out).toMatch(/^restprobe \d+\.\d+\.\d+ is installed/);
    expect(steps[3]!.with).toEqual({ name: 'restprobe-reports', path: reports, 'if-no-files-found': 'warn' });
    const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8')) as { summary: { pass: number; fail: number } };
    expect(report.summary).toMatchObject({ fail: 0 });
    expect(report.summary.pass).toBeGreaterThan(0);
  }, 120_000);

  it('on a pull request: takes the newest completed main run\'s report as the baseline though main failed, and fails on a new failure only', async () => {
    // Main's last completed run failed (a known failure), and its report was kept.
    const main = await server(['problem-without-detail']);
    const mainReports = join(await mkdtemp(join(tmpdir(), 'restprobe-main-')), 'reports');
    const first = await runAction({ 'base-url': main.url, config: referenceConfig, 'report-dir': mainReports, args: only }, { event_name: 'push' }, { ...process.env, ...main.secrets } as Record<string, string>);
    expect(first[2]!.code, first[2]!.out).toBe(1);
    const gh = await fakeGh([
      { databaseId: 9, status: 'in_progress', conclusion: '' },
      { databaseId: 8, status: 'completed', conclusion: 'cancelled', artifact: mainReports },
      { databaseId: 7, status: 'completed', conclusion: 'failure', artifact: mainReports },
      { databaseId: 6, status: 'completed', conclusion: 'success' },
    ]);
    // The pull request keeps main's known failure: the run passes against the baseline.
    const pr = await server(['problem-without-detail']);
    const prReports = join(await mkdtemp(join(tmpdir(), 'restprobe-pr-')), 'reports');
    const env = { ...process.env, ...pr.secrets, PATH: `${gh}:${process.env['PATH']}` } as Record<string, string>;
    const steps = await runAction({ 'base-url': pr.url, config: referenceConfig, 'report-dir': prReports, args: only }, { event_name: 'pull_request' }, env);
    expect(steps[1]!.out).toContain('Baseline: the report of run 7 on main');
    expect(steps[2]!.code, steps[2]!.out).toBe(0);
    const report = JSON.parse(await readFile(join(prReports, 'restprobe-report.json'), 'utf8')) as { baseline?: { stillFailing: unknown[] } };
    expect(report.baseline?.stillFailing.length).toBeGreaterThan(0);

    // A pull request that breaks something more fails, and says so in the step's output.
    const worse = await server(['problem-without-detail', 'malformed-json-500']);
    const worseSteps = await runAction({ 'base-url': worse.url, config: referenceConfig, 'report-dir': prReports, args: only }, { event_name: 'pull_request' }, { ...env, ...worse.secrets });
    expect(worseSteps[2]!.code).toBe(1);
    expect(worseSteps[3]!.ran).toBe(true);
  }, 180_000);

  it('finds no baseline when main has no completed run with a report, and runs on its own', async () => {
    const clean = await server();
    const gh = await fakeGh([{ databaseId: 3, status: 'completed', conclusion: 'failure' }]);
    const reports = join(await mkdtemp(join(tmpdir(), 'restprobe-ws-')), 'reports');
    const steps = await runAction({ 'base-url': clean.url, config: referenceConfig, 'report-dir': reports, args: only }, { event_name: 'pull_request' }, { ...process.env, ...clean.secrets, PATH: `${gh}:${process.env['PATH']}` } as Record<string, string>);
    expect(steps[1]!.out).toContain('No report of a completed run on main');
    expect(steps[2]!.code, steps[2]!.out).toBe(0);
    const report = JSON.parse(await readFile(join(reports, 'restprobe-report.json'), 'utf8')) as { baseline?: unknown };
    expect(report.baseline).toBeUndefined();
  }, 120_000);

  it('a baseline input that names no file is a warning, not a failed run', async () => {
    const clean = await server();
    const ws = await mkdtemp(join(tmpdir(), 'restprobe-ws-'));
    await mkdir(join(ws, 'empty'));
    await cp(referenceConfig, join(ws, 'restprobe.config.json'));
    const steps = await runAction({ 'base-url': clean.url, config: join(ws, 'restprobe.config.json'), 'report-dir': join(ws, 'reports'), baseline: join(ws, 'empty', 'nope.json'), args: only }, { event_name: 'pull_request' }, { ...process.env, ...clean.secrets } as Record<string, string>);
    expect(steps[1]!.ran).toBe(false);
    expect(steps[2]!.out).toContain('::warning title=restprobe::no baseline at');
    expect(steps[2]!.code).toBe(0);
  }, 120_000);
});
