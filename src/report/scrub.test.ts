import { describe, expect, it } from 'vitest';
import { sampleEvidence, sampleExchange, sampleReport, sampleResult } from '../../test/support/report-samples.js';
import { renderGithubAnnotations } from './github.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { scrubReport } from './scrub.js';
import { renderSummary } from './terminal.js';

// Secrets that share 8 characters with check ids, titles and rules: scrubbing must not touch those.
const secrets = [
  { envName: 'OIDC_PROVIDER_CC_SECRET', value: 'cc-client-credentials-token-9' },
  { envName: 'SPA_PASSWORD', value: 'AUT-password-grant-refused' },
];

const result = sampleResult({
  id: 'AUT-client-credentials-token',
  section: 'AUT',
  status: 'fail',
  title: 'The client-credentials-token grant answers a token',
  rule: 'The token endpoint MUST issue an access token (AUT-password-grant-refused is another rule).',
  message: `found the secret cc-client-credentials-token-9 echoed, expected it kept`,
  rootCause: 'POST /token echoed AUT-password-grant-refused',
  evidence: sampleEvidence({ exchanges: [sampleExchange(200, { body: 'password=AUT-password-grant-refused' })], requestCount: 1, notes: ['sent cc-client-credentials-token-9'] }),
});

describe('scrubReport', () => {
  const report = sampleReport(false, [result, sampleResult({ id: 'AUT-password-grant-refused', section: 'AUT', status: 'pass' })]);
  const safe = scrubReport(report, secrets);

  it('scrubs what the run found: messages, root causes, evidence and notes', () => {
    const [scrubbed] = safe.checks.filter((r) => r.status === 'fail');
    expect(scrubbed?.message).toBe('found the secret $OIDC_PROVIDER_CC_SECRET echoed, expected it kept');
    expect(scrubbed?.rootCause).toBe('POST /token echoed $SPA_PASSWORD');
    expect(scrubbed?.evidence.exchanges[0]?.request.body).toBe('password=$SPA_PASSWORD');
    expect(scrubbed?.evidence.notes).toEqual(['sent $OIDC_PROVIDER_CC_SECRET']);
  });

  it('never changes check ids, titles, rules, result names or the run order', () => {
    expect(safe.checks.map((r) => [r.id, r.title, r.rule])).toEqual(report.checks.map((r) => [r.id, r.title, r.rule]));
    expect(safe.runOrder).toEqual(report.runOrder);
    expect(safe.rootCauses.map((c) => c.checks)).toEqual(report.rootCauses.map((c) => c.checks));
  });

  it('every writer names the checks as they are, and shows no secret', () => {
    const outputs = [renderJunit(safe), renderMarkdown(safe), renderHtml(safe), renderGithubAnnotations(safe), renderSummary(report, { color: false, secrets })];
    for (const text of outputs) {
      expect(text).toContain('AUT-client-credentials-token');
      expect(text).not.toContain('cc-client-credentials-token-9');
      expect(text).not.toMatch(/AUT\$|\$OIDC_PROVIDER_CC_SECRETcredentials/);
    }
  });
});
