/**
 * A vitest reporter that turns finished tests into CheckResults. Catalogue checks bring
 * their result in `meta`; a plain vitest test (a user's own suite) is judged by its
 * vitest state. Files that fail to load and unhandled errors become `error` results.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { CheckResult, Section } from '../model/check.js';
import { sections } from '../model/check.js';
import './settings.js';

export class ResultCollector implements Reporter {
  readonly results: CheckResult[] = [];
  readonly harnessErrors: string[] = [];

  constructor(private readonly onResult: (result: CheckResult) => void = () => {}) {}

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.meta().restprobe ?? fromVitestState(testCase);
    this.results.push(result);
    this.onResult(result);
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const e of testModule.errors()) this.harnessErrors.push(`${testModule.moduleId}: ${e.message}`);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const e of unhandled) this.harnessErrors.push(e.message ?? 'unhandled error');
  }
}

/** A user's vitest test, named `<ID>: title` or anything: section from the id prefix when it has one. */
function fromVitestState(testCase: TestCase): CheckResult {
  const r = testCase.result();
  const prefix = testCase.name.split('-')[0] ?? '';
  const section = (prefix in sections ? prefix : 'CON') as Section;
  const status = r.state === 'passed' ? 'pass' : r.state === 'skipped' ? 'skip' : r.state === 'failed' ? 'fail' : 'error';
  return {
    id: testCase.name.split(':')[0]!.trim(),
    section,
    title: testCase.fullName,
    rule: '(user test)',
    severity: 'must',
    status,
    message: r.state === 'failed' ? (r.errors?.[0]?.message ?? 'failed') : '',
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    evidence: { exchanges: [], requestCount: 0, notes: [] },
  };
}
