/**
 * The refresh tokens a run obtains are revoked when their checks end (RFC 7009), or listed
 * as leftovers when they cannot be (issue 23, item 6): a run used to leave six live refresh
 * families on the authorization server, unsaid. A client that records every token response
 * the run got shows what the run obtained; the tokens are then presented to the token endpoint.
 */
import { describe, expect, it } from 'vitest';
import { HttpClient, type RawRequest, type RawResponse } from '../src/http/client.js';
import { basicCredentials } from '../src/check-kit/oauth-token.js';
import { runChecks, type RunOutcome } from '../src/engine/run.js';
import type { Check } from '../src/model/check.js';
import { catalogue } from '../suites/catalogue.js';
import { startTarget, startVariant, type Target } from './support/target.js';
import { jsonOf, pathOf } from './support/rewriting-proxy.js';

interface Issued {
  readonly token: string;
  /** The grant that issued it: a code redemption starts a family, a refresh continues one. */
  readonly grant: string;
}

/** A client that keeps every refresh token a token endpoint answered with. */
class RecordingClient extends HttpClient {
  readonly issued: Issued[] = [];
  override async send(req: RawRequest): Promise<RawResponse> {
    const res = await super.send(req);
    if (req.method === 'POST' && new URL(req.url).pathname === '/oauth/token') {
      const token = (JSON.parse(res.body.toString('utf8') || '{}') as { refresh_token?: unknown }).refresh_token;
      const grant = new URLSearchParams(String(req.body ?? '')).get('grant_type') ?? '';
      if (typeof token === 'string') this.issued.push({ token, grant });
    }
    return res;
  }
}

async function runRecorded(target: Target, checks: readonly Check[]): Promise<{ outcome: RunOutcome; issued: readonly Issued[] }> {
  const client = new RecordingClient({ timeoutMs: 5_000, maxBodyBytes: target.profile.http.maxBodyBytes, connections: 4, maxRequests: 50_000 });
  try {
    return { outcome: await runChecks({ profile: target.profile, checks, seed: 1, client }), issued: client.issued };
  } finally {
    await client.close();
  }
}

/** What the token endpoint answers a refresh with `token`: 200 while the family lives. */
async function refreshStatus(target: Target, token: string): Promise<number> {
  const { RESTPROBE_OAUTH_CLIENT_ID: id, RESTPROBE_OAUTH_CLIENT_SECRET: secret } = target.server.secrets;
  const res = await target.client.send({
    method: 'POST',
    url: `${target.server.url}/oauth/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicCredentials(id, secret) },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
  });
  return res.status;
}

const codeFlowChecks = catalogue.filter((c) => (c.needs as readonly string[]).includes('oauthCodeFlow'));

describe('refresh tokens a run obtains', () => {
  it('are all revoked at the end of a full run against the reference server, and none is left', async () => {
    const target = await startTarget();
    try {
      const { outcome, issued } = await runRecorded(target, catalogue);
      const families = issued.filter((i) => i.grant === 'authorization_code');
      // The run's code flow done right (shared by the checks that only need it to work), and the flows of AUT-code-single-use and of the three refresh checks' one family, which spend theirs.
      expect(families.length).toBeGreaterThanOrEqual(3);
      // Every one of them, the newest of each family included, is refused now.
      const live = [];
      for (const { token, grant } of issued) if ((await refreshStatus(target, token)) === 200) live.push(grant);
      expect(live).toEqual([]);
      expect(outcome.leftovers.filter((l) => l.url.endsWith('/oauth/token'))).toEqual([]);
      // Each check says what it revoked.
      const notes = outcome.results.flatMap((r) => r.evidence.notes);
      expect(notes.filter((n) => n === 'cleanup: revoked a refresh token from the code flow')).toHaveLength(families.length);
    } finally {
      await target.close();
    }
  }, 120_000);

  it('are listed as leftovers, by check and never by value, when the server advertises no revocation_endpoint', async () => {
    const target = await startVariant({
      response: (res, req) => {
        if (pathOf(req) !== '/.well-known/oauth-authorization-server') return res;
        const { revocation_endpoint: _gone, ...metadata } = jsonOf(res);
        return { ...res, body: JSON.stringify(metadata) };
      },
    });
    try {
      const { outcome, issued } = await runRecorded(target, codeFlowChecks);
      const families = issued.filter((i) => i.grant === 'authorization_code');
      expect(families.length).toBeGreaterThan(0);
      const left = outcome.leftovers.filter((l) => l.url === `${target.server.url}/oauth/token`);
      expect(left).toHaveLength(families.length);
      for (const l of left) {
        expect(l.lastAnswer).toBe('a refresh token from the code flow (its value is not shown) was not revoked: the authorization server advertises no revocation_endpoint (RFC 7009); it stays valid until it expires or is revoked there');
        expect(codeFlowChecks.map((c) => c.id)).toContain(l.owner);
      }
      const listed = JSON.stringify(outcome.leftovers);
      for (const { token } of issued) expect(listed).not.toContain(token);
    } finally {
      await target.close();
    }
  }, 120_000);
});
