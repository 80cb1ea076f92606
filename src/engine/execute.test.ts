/**
 * executeCheck turns whatever a check does into an honest outcome: a check never passes
 * because it could not run, and a secret never reaches the result.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHostileServer, type HostileServer } from '../../test/support/hostile-server.js';
import { RestprobeError } from '../errors.js';
import { CheckFailure, CheckSkipped, defineCheck, type Check } from '../model/check.js';
import type { Severity } from '../model/section.js';
import type { CheckResult } from '../model/result.js';
import type { NeedName } from '../model/needs.js';
import type { CheckContext } from '../model/context.js';
import type { TargetProfile } from '../model/profile.js';
import { testProfile } from '../../test/support/profile.js';
import { HttpClient } from '../http/client.js';
import { REDACTED } from '../http/redact.js';
import { executeCheck } from './execute.js';

const apiKey = 'sk-live-9e8d7c6b5a4f3e21';
const fast = { timeout: 5_000 };

function profileFor(baseUrl: string, overrides: { readOnly?: boolean; withKey?: boolean } = {}): TargetProfile {
  return testProfile(baseUrl, { apiKey, keyHeader: overrides.withKey === false ? null : 'X-API-Key', readOnly: overrides.readOnly ?? false });
}

function fakeCheck(run: (ctx: CheckContext) => Promise<void>, severity: Severity = 'must', needs: NeedName[] = []): Check {
  return defineCheck({ id: 'ERR-fake-check', title: 'A fake check', rule: 'The target MUST do the thing.', severity, needs, run });
}

let server: HostileServer;
let client: HttpClient;
let profile: TargetProfile;

beforeAll(async () => {
  server = await startHostileServer();
  profile = profileFor(server.url);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  client = new HttpClient({ timeoutMs: 300, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
});
afterEach(async () => {
  await client.close();
});

const execute = (check: Check, p: TargetProfile = profile): Promise<CheckResult> => executeCheck(check, { profile: p, client, seed: 1 });

describe('executeCheck outcomes', () => {
  it('a check that returns → pass', fast, async () => {
    const result = await execute(fakeCheck(async (ctx) => void (await ctx.http.send({ method: 'GET', path: '/echo' }))));
    expect(result).toMatchObject({ id: 'ERR-fake-check', section: 'ERR', severity: 'must', status: 'pass', message: '' });
    expect(result.configKey).toBeUndefined();
    expect(result.evidence.requestCount).toBe(1);
  });

  it('CheckFailure on a must check → fail, with expected and found', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        const res = await ctx.http.send({ method: 'GET', path: '/redirect-loop' });
        throw new CheckFailure(`GET /redirect-loop answered ${res.status}`, '200 OK', `${res.status}`);
      }),
    );
    expect(result.status).toBe('fail');
    expect(result.message).toBe('GET /redirect-loop answered 302');
    expect(result.evidence.expected).toBe('200 OK');
    expect(result.evidence.found).toBe('302');
  });

  it('CheckFailure on a should check → warn', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw new CheckFailure('no ETag', 'an ETag header', 'none'); }, 'should'));
    expect(result.status).toBe('warn');
    expect(result.evidence).toMatchObject({ expected: 'an ETag header', found: 'none' });
  });

  it('CheckFailure on an info check never fails', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw new CheckFailure('noted'); }, 'info'));
    expect(result.status).not.toBe('fail');
  });

  it('CheckSkipped → skip, with the config key', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw new CheckSkipped('no pagination configured', 'collections[].pagination.style'); }));
    expect(result).toMatchObject({ status: 'skip', message: 'no pagination configured', configKey: 'collections[].pagination.style' });
  });

  it('a request that times out → error, never pass', fast, async () => {
    const result = await execute(fakeCheck(async (ctx) => void (await ctx.http.send({ method: 'GET', path: '/no-headers' }))));
    expect(result.status).toBe('error');
    expect(result.message).toContain('no complete response within 300 ms');
    const x = result.evidence.exchanges[0]!;
    expect(x.error).toContain('no complete response');
    expect(x.curl).toContain('/no-headers');
  });

  it('a body past the cap, a protocol error, a spent budget → error', fast, async () => {
    for (const path of ['/huge', '/garbage', '/reset']) {
      const result = await execute(fakeCheck(async (ctx) => void (await ctx.http.send({ method: 'GET', path }))));
      expect(result.status, path).toBe('error');
    }
    const tiny = new HttpClient({ ...client.options, maxRequests: 1 });
    try {
      const check = fakeCheck(async (ctx) => {
        await ctx.http.send({ method: 'GET', path: '/echo' });
        await ctx.http.send({ method: 'GET', path: '/echo' });
      });
      const result = await executeCheck(check, { profile, client: tiny, seed: 1 });
      expect(result.status).toBe('error');
      expect(result.message).toContain('safety.maxRequests');
    } finally {
      await tiny.close();
    }
  });

  it('a TypeError → error "harness fault…", the stack in notes, not in the message', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        const res = await ctx.http.send({ method: 'GET', path: '/echo' });
        (res.json as { missing: { field: string } }).missing.field.toString();
      }),
    );
    expect(result.status).toBe('error');
    expect(result.message.startsWith('harness fault')).toBe(true);
    expect(result.message).toContain('Cannot read properties of undefined');
    expect(result.message).not.toContain('\n');
    expect(result.message).not.toMatch(/\bat .+:\d+:\d+/);
    expect(result.evidence.notes.some((n) => n.startsWith('TypeError') && /\n\s+at /.test(n))).toBe(true);
  });

  it('a thrown non-Error → error "harness fault…"', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw 'plain string'; }));
    expect(result).toMatchObject({ status: 'error', message: 'harness fault: plain string' });
  });

  it('a RestprobeError thrown by the check itself → error', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw new RestprobeError('ERR_HARNESS', 'unexpected state'); }));
    expect(result).toMatchObject({ status: 'error', message: 'unexpected state' });
  });
});

describe('a pass rests on an answer the check judges', () => {
  /** The vacuous check of issue 23: "refused" holds for a 503 as much as for a 401. */
  const refusedCheck = (paths: string[], judges?: Check['judges']) =>
    defineCheck({
      id: 'AUT-fake-refusal',
      title: 'A fake refusal check',
      rule: 'The target MUST refuse.',
      severity: 'must',
      needs: [],
      ...(judges && { judges }),
      async run(ctx) {
        for (const path of paths) {
          const res = await ctx.http.send({ method: 'POST', path });
          if (res.status < 300) throw new CheckFailure(`POST ${path} answered ${res.status}, expected a refusal`);
        }
      },
    });

  it('every request answered 5xx → error ERR_SETUP naming what came, never pass', fast, async () => {
    const result = await execute(refusedCheck(['/status?code=503', '/status?code=500']));
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP', rootCause: 'no response to judge: the target answered 503 or answered 500' });
    expect(result.message).toBe('no response to judge: 2 requests sent, 1 answered 503, 1 answered 500; expected a 2xx or 4xx answer to judge the rule by (a 5xx is the server failing, a redirect not asked about answers nothing), so the check did not pass');
    // The exchanges are kept whole, as for any error: the curl shows the 503.
    expect(result.evidence.exchanges.at(-1)?.response?.status).toBe(500);
  });

  it('a redirect loop → error naming the loop', fast, async () => {
    const result = await execute(refusedCheck(['/redirect-loop']));
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP' });
    expect(result.message).toContain('1 answered 302 (a redirect to itself: a loop)');
  });

  it('one judgeable answer among 5xx → pass', fast, async () => {
    expect((await execute(refusedCheck(['/status?code=503', '/status?code=401']))).status).toBe('pass');
  });

  it("a redirect passes a check that declares it judges 3xx, and only such a check", fast, async () => {
    expect((await execute(refusedCheck(['/status?code=301'], ['3xx']))).status).toBe('pass');
    expect((await execute(refusedCheck(['/status?code=301']))).status).toBe('error');
  });

  it('a check that sends nothing and returns → skip, not pass', fast, async () => {
    const result = await execute(fakeCheck(async () => {}));
    expect(result).toMatchObject({ status: 'skip', message: 'nothing observed: the check sent no request, so it judged nothing' });
    // One whose subject is no answer says what it judged: its pass stands, and the evidence says on what.
    const said = await execute(fakeCheck(async (ctx) => ctx.observed('the delivery at the listener')));
    expect(said).toMatchObject({ status: 'pass', evidence: { notes: ['judged: the delivery at the listener'] } });
  });

  it('transport errors the check caught are no answer either', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        await ctx.http.send({ method: 'POST', path: '/no-headers' }).catch(() => undefined);
      }),
    );
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_SETUP' });
    expect(result.message).toContain('1 got no answer (ERR_TIMEOUT)');
  });
});

describe('executeCheck requirements', () => {
  const never = async (): Promise<void> => {
    throw new Error('the check must not run');
  };

  it('collection, with no collections → skip (collections), nothing sent', fast, async () => {
    const before = client.requestCount;
    const result = await execute(fakeCheck(never, 'must', ['collection']));
    expect(result).toMatchObject({ status: 'skip', configKey: 'collections' });
    expect(client.requestCount).toBe(before);
  });

  it('write, on a read-only run → skip (safety.readOnly)', fast, async () => {
    const result = await execute(fakeCheck(never, 'must', ['writable']), profileFor(server.url, { readOnly: true }));
    expect(result).toMatchObject({ status: 'skip', configKey: 'safety.readOnly' });
  });

  it('write, with no collection that can be created → skip (collections[].create.body)', fast, async () => {
    const result = await execute(fakeCheck(never, 'must', ['writable']));
    expect(result).toMatchObject({ status: 'skip', configKey: 'collections[].create.body' });
  });

  it('credentials, with none configured → skip (auth.apiKey)', fast, async () => {
    const result = await execute(fakeCheck(never, 'must', ['credentials']), profileFor(server.url, { withKey: false }));
    expect(result).toMatchObject({ status: 'skip', configKey: 'auth.apiKey' });
  });
});

describe('executeCheck evidence', () => {
  it('a pass keeps a summary per exchange: no bodies, no headers, no curl', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        await ctx.http.send({ method: 'POST', path: '/echo', json: { a: 1 } });
        await ctx.http.send({ method: 'GET', path: '/set-cookie' });
      }),
    );
    expect(result.status).toBe('pass');
    expect(result.evidence.requestCount).toBe(2);
    expect(result.evidence.exchanges).toHaveLength(2);
    for (const x of result.evidence.exchanges) {
      expect(x.request.headers).toEqual({});
      expect(x.request.body).toBeUndefined();
      expect(x.response?.headers).toEqual({});
      expect(x.response?.body).toBeUndefined();
      expect(x.curl).toBe('');
    }
    expect(result.evidence.exchanges.map((x) => [x.request.method, x.response?.status])).toEqual([['POST', 200], ['GET', 200]]);
  });

  it('a failure keeps whole exchanges, redacted, with curl', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        await ctx.http.send({ method: 'GET', path: '/set-cookie' });
        throw new CheckFailure('tokens in the clear');
      }),
    );
    expect(result.status).toBe('fail');
    const x = result.evidence.exchanges[0]!;
    expect(x.request.headers['x-api-key']).toBe(REDACTED);
    expect(x.request.headers['accept']).toBe('application/json');
    expect(x.response?.headers['set-cookie']).toBe(REDACTED);
    expect(x.response?.body).toContain('"access_token":"<redacted>"');
    expect(x.curl).toContain(`"x-api-key: $API_KEY"`);
    expect(JSON.stringify(result)).not.toContain(apiKey);
  });

  it('a failure keeps the last 25 exchanges and counts them all', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        for (let i = 0; i < 30; i++) await ctx.http.send({ method: 'GET', path: `/echo?i=${i}` });
        throw new CheckFailure('too many');
      }),
    );
    expect(result.evidence.requestCount).toBe(30);
    expect(result.evidence.exchanges).toHaveLength(25);
    expect(result.evidence.exchanges[24]!.request.url).toContain('/echo?i=29');
  });

  it('scrubs a secret planted in a failure message, expected and found', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        ctx.note(`sent key ${apiKey}`);
        throw new CheckFailure(`the key ${apiKey} was echoed back`, `no ${apiKey}`, encodeURIComponent(`k=${apiKey}`));
      }),
    );
    expect(result.status).toBe('fail');
    expect(result.message).toBe('the key $API_KEY was echoed back');
    expect(result.evidence.expected).toBe('no $API_KEY');
    expect(result.evidence.notes).toEqual(['sent key $API_KEY']);
    expect(JSON.stringify(result)).not.toContain(apiKey);
  });

  it('scrubs a secret in a harness fault’s message and stack', fast, async () => {
    const result = await execute(fakeCheck(async () => { throw new TypeError(`bad key ${apiKey}`); }));
    expect(result.status).toBe('error');
    expect(result.message).toBe('harness fault: bad key $API_KEY');
    expect(JSON.stringify(result)).not.toContain(apiKey);
  });

  it('cleanup that fails (a target that never answers) becomes a note, not a verdict, and does not hang', fast, async () => {
    const result = await execute(
      fakeCheck(async (ctx) => {
        ctx.track(`${server.url}/no-headers`);
        ctx.observed('a made-up subject');
      }),
    );
    expect(result.status).toBe('pass');
    // Retried as §7.3 says (a timeout is transient), then listed as left with the last failure.
    expect(result.evidence.notes.filter((n) => /^cleanup: DELETE \/no-headers failed \(no complete response within 300 ms .*\); waited \d+ ms and retried/.test(n))).toHaveLength(2);
    expect(result.evidence.notes.at(-1)).toMatch(/^cleanup: left .*\/no-headers: DELETE failed: .*no complete response/);
  });
});

describe('data a check records', () => {
  const recording = (records: Check['records']): Check =>
    defineCheck({
      id: 'VER-fake-recording',
      title: 'A fake recording check',
      rule: 'The target MUST answer.',
      severity: 'must',
      needs: [],
      records,
      async run(ctx) {
        await ctx.http.send({ method: 'GET', path: '/echo' });
        ctx.record('seen', { key: apiKey, n: 1 });
        throw new CheckFailure('found something, expected nothing');
      },
    });

  it('is kept in the result whatever the verdict, scrubbed of secrets', async () => {
    const result = await execute(recording({ seen: { description: 'what it saw', schema: { type: 'object' } } }));
    expect(result.status).toBe('fail');
    expect(result.data).toEqual({ seen: { key: '$API_KEY', n: 1 } });
  });

  it('under a name the check does not declare is a harness fault, not a verdict', async () => {
    const result = await execute(recording({}));
    expect(result).toMatchObject({ status: 'error', errorCode: 'ERR_HARNESS', message: 'harness fault: VER-fake-recording recorded seen, which its records do not declare' });
  });
});
