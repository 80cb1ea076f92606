/**
 * §8.1 and §7 what a rate limiter's answers say: a 429's Retry-After and problem body, the
 * RateLimit fields, and an overloaded server's 503. Scheduled and bounded like the
 * limiter checks (rate-limits.ts): alone, raw, the target's wait waited out at the end
 * whatever the verdict.
 */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { describe, ensure, expectHeader } from '../../src/check-kit/expect.js';
import { expectProblems } from '../../src/check-kit/problem.js';
import { answerOf, burstUntil, quotaOf, requireLimited, type Sent } from '../../src/check-kit/rate-limit-burst.js';
import { draftSyntax, legacyFields, readRateLimitFields, remainingOf, retryAfterProblem, tightest } from '../../src/check-kit/rate-limit-fields.js';
import { burstToLimit, elapsed, firstBackoffMs, judgeRefusal, leavingQuotaAsFound, probeAfter, slackMs, statedWait } from '../../src/check-kit/rate-limit-wait.js';
import { enforcedId } from './rate-limits.js';

/** Fails when `sent` has a Retry-After that is neither delay-seconds nor an IMF-fixdate. */
function expectValidRetryAfter(sent: Sent, value: string): void {
  const problem = retryAfterProblem(value);
  if (problem !== undefined) {
    throw new CheckFailure(`${describe(sent.res)} has Retry-After "${value}", which ${problem}; expected delay-seconds or an IMF-fixdate`, 'delay-seconds or IMF-fixdate', value, sent.res.exchangeIndex);
  }
}

export const retryAfterValid = defineCheck({
  id: 'LIM-retry-after-valid',
  title: 'A 429 carries a valid Retry-After',
  rule: 'A 429 MUST carry `Retry-After` (conventions §8.1), as delay-seconds or an IMF-fixdate HTTP-date (RFC 9110 §10.2.3, §5.6.7).',
  severity: 'must',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  async run(ctx, { rateLimit: probe }) {
    await judgeRefusal(ctx, probe, (limited) => expectValidRetryAfter(limited, expectHeader(limited.res, 'Retry-After', 'the answer past the limit')));
  },
});

export const limitedProblemDetails = defineCheck({
  id: 'LIM-429-problem-details',
  title: 'A 429 explains itself in problem+json',
  rule: 'A 429 MUST carry a problem+json body whose `status` is 429 (conventions §7; RFC 6585 §4: it explains the limit).',
  severity: 'must',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  // Error bodies in general are those checks' finding: here only the 429's own.
  dependsOn: [enforcedId, 'ERR-problem-json-content-type', 'ERR-problem-status-matches'],
  async run(ctx, { rateLimit: probe }) {
    await judgeRefusal(ctx, probe, (limited) => {
      expectProblems([limited.res], 'content-type', 'application/problem+json', '429 responses');
      expectProblems([limited.res], 'status', 'status 429, as the HTTP status', '429 responses');
    });
  },
});

export const rateLimitFieldsAgree = defineCheck({
  id: 'LIM-ratelimit-headers',
  title: 'RateLimit fields are well-formed and tell the truth',
  rule: 'RateLimit fields, when sent, SHOULD follow the grammar of the draft of draft-ietf-httpapi-ratelimit-headers their names show (-06: `RateLimit-Limit`, `-Remaining`, `-Reset`; -07: one `RateLimit` Dictionary; -10: `RateLimit` and `RateLimit-Policy` Lists of named policies) and agree with the limiter: a served request leaves less than the whole quota remaining, the 429 says none remains, and no request is still limited once the stated reset has passed.',
  severity: 'should',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  run: (ctx, { rateLimit: probe }) => leavingQuotaAsFound(ctx, probe, async () => {
    // One request at a time, so what remains can be read in the order the limiter counted.
    const burst = await burstToLimit(ctx, probe, { concurrency: 1 });
    const limited = requireLimited(burst, probe);
    const answers = burst.sent.map((s) => ({ s, fields: readRateLimitFields(s.res) }));
    const legacy = legacyFields(limited.res);
    if (legacy.length > 0) ctx.note(`legacy rate-limit fields on the 429 (reported, not judged): ${legacy.join('; ')}`);
    const withFields = answers.filter((a) => a.fields !== undefined);
    if (withFields.length === 0) throw new CheckSkipped(`none of ${answers.length} answers carries RateLimit fields (RateLimit, RateLimit-Policy, or draft-06's RateLimit-Limit, -Remaining, -Reset), which are optional: nothing to judge`);
    const drafts = [...new Set(withFields.map((a) => a.fields!.draft))];
    ctx.note(`RateLimit fields in the syntax of ${drafts.map((d) => draftSyntax[d]).join(' and ')}: read as such`);
    const problems = [...new Set(withFields.flatMap((a) => a.fields!.problems))];
    ensure(problems.length === 0, `${problems.join('; ')}; expected the syntax of ${drafts.map((d) => `draft-${d}`).join(' or ')}`, drafts.map((d) => draftSyntax[d]).join(' or '), problems.join('; '));
    const served = answers.filter((a) => answerOf(a.s.res, probe.client) === 'served');
    // A served request used one unit of every policy: none can still have its whole quota left.
    const whole = served.flatMap(({ s, fields }) => fields!.left.filter((l) => fields!.policies.some((p) => p.name === l.name && l.remaining >= p.quota)).map((l) => ({ s, l, fields: fields! })));
    if (whole.length > 0) {
      const { s, l, fields } = whole[0]!;
      throw new CheckFailure(`${describe(s.res)} says ${remainingOf(fields, l)}, its whole quota, though the request was served: expected less than the quota remaining`, 'remaining < quota', remainingOf(fields, l), s.res.exchangeIndex);
    }
    const left = served.flatMap((a) => tightest(a.fields)?.remaining ?? []);
    const limitedFields = readRateLimitFields(limited.res);
    const atLimit = tightest(limitedFields);
    if (atLimit !== undefined && atLimit.remaining !== 0) {
      const said = remainingOf(limitedFields!, atLimit);
      throw new CheckFailure(`${describe(limited.res)} says ${said}, expected none remaining on the answer that refuses for want of quota`, 'remaining 0', said, limited.res.exchangeIndex);
    }
    if (atLimit?.reset === undefined) return;
    // The quota must be back once `t` has passed: look first where the target says, then just after `t`.
    const resetMs = atLimit.reset * 1000;
    const first = await probeAfter(ctx, probe, limited, Math.min(statedWait(limited)?.ms ?? firstBackoffMs, resetMs));
    const back = answerOf(first.res, probe.client) === 'served' ? first : await probeAfter(ctx, probe, limited, resetMs + slackMs);
    if (answerOf(back.res, probe.client) !== 'served') {
      throw new CheckFailure(`${describe(back.res)} ${elapsed(limited, back)} ms after the 429, though its RateLimit fields said the quota comes back in ${atLimit.reset} s: expected it back once that had passed`, `served after ${resetMs} ms`, `${back.res.status} after ${elapsed(limited, back)} ms`, back.res.exchangeIndex);
    }
    ctx.note(`observed: ${left.length > 0 ? `remaining went ${left.join(', ')}; ` : ''}served again ${elapsed(limited, back)} ms after the 429 (reset ${atLimit.reset} s)`);
  }),
});

export const overloadRetryAfter = defineCheck({
  id: 'LIM-503-retry-after',
  title: "A 503's Retry-After is valid",
  rule: 'A 503 that carries `Retry-After` (an overloaded server may, conventions §7) MUST give it as delay-seconds or an IMF-fixdate HTTP-date (RFC 9110 §10.2.3).',
  severity: 'must',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  run: (ctx, { rateLimit: probe }) => leavingQuotaAsFound(ctx, probe, async () => {
    const burst = await burstToLimit(ctx, probe);
    let shed = burst.stop?.res.status === 503 ? burst.stop : undefined;
    if (shed === undefined) {
      requireLimited(burst, probe);
      // A limiter may shed a client that keeps sending while limited: past the first 429, the
      // limit three times over at most (a new fixed window may serve the limit again, and more
      // refusals than the limit are what makes a client abusive), so a target that never sheds
      // costs that and one wait, not the budget.
      const quota = quotaOf(burst, probe);
      const budget = Math.min(3 * quota, probe.budget - burst.sent.length);
      if (budget <= 0) throw new CheckSkipped(`the burst to the first 429 spent all of rateLimit.budget (${probe.budget}): no request was left to see whether the target sheds a client that keeps sending`, 'rateLimit.budget');
      // In waves as wide as they go: a limiter counts a client's refusals per window, and
      // narrow waves spread over windows on a slow machine. First the limit and one more (a
      // limiter that sheds past the limit, as the reference server does, sheds there), then
      // the rest of the budget at once, for a limiter that sheds later (it counts both waves
      // together unless a window ends between them).
      const first = Math.min(quota + 1, budget);
      let sentPast = 0;
      for (const wave of [first, budget - first].filter((n) => n > 0)) {
        const past = await burstUntil(ctx, probe, { until: (a) => a === 'shed', budget: wave, concurrency: wave });
        sentPast += past.sent.length;
        shed = past.stop;
        if (shed !== undefined) break;
      }
      if (shed === undefined) throw new CheckSkipped(`no 503 in ${sentPast} requests as ${probe.client.label} past the first 429 (${budget === 3 * quota ? `three times the limit of ${quota}` : `what was left of rateLimit.budget, ${probe.budget}`}): the target does not shed a client that keeps sending, so there is no overload answer to judge`);
    }
    const value = shed.res.headers['retry-after'];
    if (value === undefined) throw new CheckSkipped(`${describe(shed.res)} carries no Retry-After, which a 503 may omit: nothing to judge`);
    expectValidRetryAfter(shed, value);
    ctx.note(`observed: 503 after ${burst.served} served requests, Retry-After: ${value}`);
  }),
});

export const rateLimitAnswerChecks = [retryAfterValid, limitedProblemDetails, rateLimitFieldsAgree, overloadRetryAfter];
