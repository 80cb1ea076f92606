/**
 * §8.1–8.2 rate limiting: the limiter is real, tells the truth about its wait, counts each
 * client on its own, and shares its counters across nodes. Each check runs alone
 * (`exclusive`), sends its own burst through the raw session (no retry policy), and, whatever
 * its verdict, waits out what the target said before it ends (leavingQuotaAsFound), so the
 * next finds the client no longer limited (and the quota whole, where the run shares it).
 */
import { CheckFailure, CheckSkipped, ShouldFailure, defineCheck } from '../../src/model/check.js';
import { describe, expectStatus } from '../../src/check-kit/expect.js';
import { setupError } from '../../src/check-kit/setup.js';
import { advertised, answerOf, lastRefusal, quotaOf, requireLimited, sendAs, type Burst, type Sent } from '../../src/check-kit/rate-limit-burst.js';
import { burstToLimit, elapsed, leavingQuotaAsFound, probeAfter, quotaWindowMs, retryAfterWait, sharedBurstToLimit, sharedRefills, slackMs, sleepAfter, statedWait, wholeQuotaFirst } from '../../src/check-kit/rate-limit-wait.js';
import type { RateLimitProbe } from '../../src/model/needs.js';
import { readRateLimitFields } from '../../src/check-kit/rate-limit-fields.js';

export const enforcedId = 'LIM-rate-limit-enforced';

const perWindow = (quota: number, windowMs: number | undefined): string => `${quota}${windowMs === undefined ? '' : ` per ${windowMs} ms`}`;

/** What a burst showed of the limiter, for the evidence on any verdict. */
function characterise(burst: Burst, probe: RateLimitProbe): string {
  const last = burst.stop ?? burst.sent.at(-1);
  const took = last === undefined ? 0 : Math.round(last.at - burst.startedAt);
  const policy = advertised(burst);
  const stated = burst.stop && statedWait(burst.stop);
  return [
    `observed: ${burst.served} requests served in ${took} ms${burst.stop ? `, then ${burst.stop.res.status}${stated ? ` (${stated.said})` : ''}` : ', none refused'}`,
    `declared: ${probe.limit === undefined ? 'no limit' : perWindow(probe.limit, probe.windowMs)}`,
    `advertised: ${policy === undefined ? 'no RateLimit-Policy' : `"${policy.name}" ${perWindow(policy.quota, policy.window === undefined ? undefined : policy.window * 1000)}`}`,
  ].join('; ');
}

/** How long after its 429 a stated wait is surely over: the wait, an HTTP-date's clock grain and restprobe's slack. */
const untilSurelyOver = (w: { readonly ms: number; readonly graceMs: number }): number => w.ms + w.graceMs + slackMs;

/** The limit as a failure names it: with the declared burst, or a word on declaring one. */
const limitShown = (limit: number, windowMs: number | undefined, probe: RateLimitProbe): string =>
  `${perWindow(limit, windowMs)}${probe.burst === undefined ? ' (a token bucket that serves more at once than its rate: declare its capacity in rateLimit.burst)' : ` and the burst of ${probe.burst}`}`;

/** The shortest window a limit without a known one is taken to have: RateLimit fields count in whole seconds. */
const unknownWindowFloorMs = 1000;

export const rateLimitEnforced = defineCheck({
  id: enforcedId,
  title: 'A burst past the limit is answered 429',
  rule: 'A client that exceeds its rate limit MUST get 429 (conventions §8.1): a burst that passes the declared limit (`rateLimit.limit`, or the target\'s own RateLimit-Policy) MUST meet a 429, and no later than the limit allows.',
  severity: 'must',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  run: (ctx, { rateLimit: probe }) => leavingQuotaAsFound(ctx, probe, async () => {
    let burst = await sharedBurstToLimit(ctx, probe);
    // A gateway's passing 500, 502 or 504 amid a burst, with no sign of a limiter (no Retry-After,
    // no RateLimit fields), is no limiter's answer: the burst is sent again, once.
    const stop = burst.stop;
    if (stop !== undefined && [500, 502, 504].includes(stop.res.status) && stop.res.headers['retry-after'] === undefined && readRateLimitFields(stop.res) === undefined) {
      ctx.note(`${describe(stop.res)} after ${burst.served} served requests, with no Retry-After and no RateLimit fields: taken for a passing gateway error, and the burst sent again`);
      burst = await burstToLimit(ctx, probe);
    }
    ctx.note(characterise(burst, probe));
    const policy = advertised(burst);
    const limit = probe.limit ?? policy?.quota;
    const windowMs = probe.windowMs ?? (policy?.window === undefined ? undefined : policy.window * 1000);
    const last = burst.stop ?? burst.sent.at(-1)!;
    const took = Math.round(last.at - burst.startedAt);
    // A fixed window admits twice its limit across a boundary, a token bucket its capacity (the
    // declared burst) and what refills, and every further window the limit again. An unknown
    // window is taken as a second at least, the grain of RateLimit fields: a slow endpoint's
    // burst may outlast it, and a limiter of 5 a second then serves more than 10.
    const oneWindow = limit === undefined ? undefined : Math.max(limit, probe.burst ?? limit) + limit;
    const allowedIn = (ms: number | undefined): number | undefined => (limit === undefined || oneWindow === undefined ? undefined : oneWindow + limit * Math.floor(took / (ms ?? unknownWindowFloorMs)));
    const allowed = allowedIn(windowMs);
    if (burst.stop !== undefined) {
      expectStatus(burst.stop.res, 429, `after ${burst.served} served requests, the answer of the limiter`);
      // A limiter that counts per node (an in-memory store behind a balancer) refuses too, but only after several limits.
      if (limit !== undefined && allowed !== undefined && burst.served > allowed) {
        throw new CheckFailure(`${burst.served} requests as ${probe.client.label} were served in ${took} ms before the 429, expected it once the limit of ${limitShown(limit, windowMs, probe)} was passed (by request ${allowed + 1} at the latest)`, `429 within ${allowed + 1} requests`, `${burst.served} served first`, burst.stop.res.exchangeIndex);
      }
      // Past what one window allows, an unknown window cannot be taken for a second: a limit of
      // 5 a minute served 15 times in a 3 s burst (several times over) would pass as 5 a second.
      if (oneWindow !== undefined && windowMs === undefined && burst.served > oneWindow) {
        throw new CheckSkipped(`${burst.served} requests as ${probe.client.label} were served in ${took} ms before the 429: more than a limit of ${limit} allows in one window, and no more than it allows in windows of a second; which is right, neither rateLimit.window nor a RateLimit-Policy says`, 'rateLimit.window');
      }
      return;
    }
    if (limit === undefined || allowed === undefined) throw new CheckSkipped(`all ${burst.sent.length} requests were served, and neither rateLimit.limit nor a RateLimit-Policy says which limit to expect`, 'rateLimit.limit');
    if (burst.sent.length <= allowed) {
      throw new CheckSkipped(`all ${burst.sent.length} requests were served in ${took} ms, which a limit of ${perWindow(limit, windowMs)} may allow (up to ${allowed}): rateLimit.budget is too small to tell`, 'rateLimit.budget');
    }
    throw new CheckFailure(
      `all ${burst.sent.length} requests as ${probe.client.label} were served in ${took} ms, expected a 429 once the limit of ${limitShown(limit, windowMs, probe)} was passed (by request ${allowed + 1} at the latest)`,
      `429 within ${allowed + 1} requests`,
      `${burst.sent.length} served`,
      last.res.exchangeIndex,
    );
  }),
});

export const retryAfterTruthful = defineCheck({
  id: 'LIM-retry-after-truthful',
  title: 'Retry-After tells the truth',
  rule: `After a 429, a request sent once \`Retry-After\` has passed MUST be served (served only a resolution later, a wait rounded down, or when a finer field such as Retry-After-Ms says, is a SHOULD NOT of the RateLimit fields draft: a warning), and one sent more than its resolution (a second) before it MUST still be limited; restprobe allows ${slackMs} ms of slack either way, and for an HTTP-date the grain of the clock it is read against (the answer's Date, else restprobe's, up to 2 s apart).`,
  severity: 'must',
  needs: ['rateLimit'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  run: (ctx, { rateLimit: probe }) => leavingQuotaAsFound(ctx, probe, async () => {
    const burst = await burstToLimit(ctx, probe);
    const limited = await lastRefusal(ctx, probe, burst);
    const said = retryAfterWait(limited);
    if (said === undefined) throw new CheckSkipped(`${describe(limited.res)} carries no valid Retry-After to judge (see LIM-retry-after-valid)`);
    const most = ctx.profile.http.maxRetryWaitMs;
    // A quota of an hour (DRF's 100/hour, express-rate-limit's 15 minutes) is not waited out: the run would hold, and the check's deadline end it.
    if (untilSurelyOver(said) > most) throw new CheckSkipped(`${describe(limited.res)} says ${said.said}, longer than http.maxRetryWaitMs (${most} ms): the wait is not waited out to see whether it is true`, 'http.maxRetryWaitMs');
    const served = (s: Sent): boolean => answerOf(s.res, probe.client) === 'served';
    // An honest target is still limiting this long after the 429, whatever its rounding (and
    // an HTTP-date's clock grain). Its wait began when it answered, up to the 429's round trip
    // before the 429 came here, and the early request takes up to a served one's to be
    // answered (a limiter refuses in 2 ms what a query serves in 300): both come off. The
    // early request goes the slack before what is left, or half-way where that is short.
    const roundTrip = limited.at - limited.left;
    const servedTrip = Math.max(roundTrip, ...burst.sent.filter(served).map((x) => x.at - x.left));
    const room = said.ms - said.quantumMs - said.graceMs - roundTrip - servedTrip;
    const early = room > 2 * slackMs ? room - slackMs : room / 2;
    const finer = statedWait(limited);
    // First look where the target says the wait ends most precisely (a millisecond field), else well before Retry-After.
    const firstAt = finer !== undefined && finer.quantumMs < said.quantumMs && finer.ms < said.ms ? finer.ms : early > 0 ? early : undefined;
    // The 429 whose wait the late request keeps: the burst's, unless the early request's own ends later.
    let from = { sent: limited, said };
    if (firstAt !== undefined) {
      const first = await probeAfter(ctx, probe, limited, firstAt);
      const again = served(first) ? undefined : retryAfterWait(first);
      // A limiter that counts a refused request too (INCR and EXPIRE on each, a penalty box) restarts
      // the wait: the early request, which an obeying client would not send, is restprobe's doing.
      if (again !== undefined && first.at + again.ms > limited.at + said.ms) {
        if (untilSurelyOver(again) > most) throw new CheckSkipped(`the early request's 429 restarted the wait (${again.said}), longer than http.maxRetryWaitMs (${most} ms): not waited out`, 'http.maxRetryWaitMs');
        ctx.note(`the early request's 429 restarted the wait (${again.said}): the late request keeps that wait`);
        from = { sent: first, said: again };
      }
      if (served(first)) {
        const after = elapsed(limited, first);
        const honestFrom = said.ms - said.quantumMs - said.graceMs;
        // Served more than the stated wait's resolution (and an HTTP-date's clock grain) before it
        // ended, the wait was overstated. Proven only by the widest span the target can have
        // seen, from when the 429's request left to when this answer came: a far target's round
        // trips, or a busy machine's late timer, make no lie.
        if (first.at - limited.left < honestFrom) {
          throw new CheckFailure(`${describe(first.res)} ${after} ms after the 429, though ${said.said}: expected the stated wait to be the real one, not more than ${said.quantumMs + slackMs} ms longer`, `limited for about ${said.ms} ms`, `served after ${after} ms`, first.res.exchangeIndex);
        }
        if (first.left - limited.at < honestFrom) {
          throw new CheckSkipped(`${describe(first.res)} ${after} ms after the 429, though ${said.said}: served before the stated wait less its resolution as sent, but the round trips (${Math.round(roundTrip)} ms and ${Math.round(first.at - first.left)} ms) leave room for an honest wait rounded up, so whether it was overstated cannot be told`);
        }
        ctx.note(`observed: served again ${after} ms after the 429 (${said.said}${finer?.said === said.said ? '' : `; ${finer?.said}`})`);
        return;
      }
    }
    // An HTTP-date read against a clock may end up to the clocks' grain later than it reads.
    const lateAt = untilSurelyOver(from.said);
    const late = await probeAfter(ctx, probe, from.sent, lateAt);
    // Served, it shows the wait over by when it left: a busy machine's timer that sent it well
    // after the stated wait would pass a wait that was longer (a false pass).
    const leftAfter = late.left - from.sent.at;
    if (served(late) && leftAfter > lateAt + slackMs) {
      throw new CheckSkipped(`the request meant for ${Math.round(lateAt)} ms after the 429 (${from.said.said}) left ${Math.round(leftAfter)} ms after it, not until then (a busy machine's late timer): served then, it shows nothing of whether the wait had ended when stated`);
    }
    if (!served(late)) {
      const short = `${describe(late.res)} ${elapsed(from.sent, late)} ms after the 429, though ${from.said.said}`;
      // Whole seconds rounded down (ASP.NET's documented `(int)retryAfter.TotalSeconds`) are up to a
      // second short: a SHOULD NOT (RateLimit fields draft: not earlier than the reset). Served a
      // resolution later, or when a finer field (Retry-After-Ms) said, that is all it was; a finer
      // field no later than Retry-After is short as well.
      const finest = statedWait(from.sent);
      const secondAt = finest === undefined || finest.quantumMs >= from.said.quantumMs ? from.said.ms + from.said.quantumMs + from.said.graceMs : finest.ms > from.said.ms ? finest.ms + finest.graceMs : undefined;
      if (secondAt !== undefined) {
        const later = await probeAfter(ctx, probe, from.sent, secondAt + slackMs);
        if (served(later)) {
          throw new ShouldFailure(`${short}, then served ${elapsed(from.sent, later)} ms after it: expected the stated wait rounded up, not down, so a client that waits it is served`, `served after ${from.said.ms} ms`, `${late.res.status} after ${elapsed(from.sent, late)} ms`, late.res.exchangeIndex);
        }
      }
      throw new CheckFailure(`${short}: expected the request served once that wait had passed`, `served after ${from.said.ms} ms`, `${late.res.status} after ${elapsed(from.sent, late)} ms`, late.res.exchangeIndex);
    }
    ctx.note(`observed: served again ${elapsed(from.sent, late)} ms after the 429 (${from.said.said})`);
  }),
});

export const rateLimitPerClient = defineCheck({
  id: 'LIM-rate-limit-per-client',
  title: 'One limited client does not limit another',
  rule: 'Rate limits MUST be counted per client (conventions §8.1): while one API key is limited, a request with another key MUST be served.',
  severity: 'must',
  needs: ['rateLimit', 'otherClient'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  run: (ctx, { rateLimit: probe, otherClient: other }) => leavingQuotaAsFound(ctx, probe, async () => {
    const burst = await burstToLimit(ctx, probe);
    let last = requireLimited(burst, probe);
    const limitedNow = (s: Sent): boolean => answerOf(s.res, probe.client) !== 'served';
    // The other client has a quota too: where the first one's quota keeps coming back (a
    // sliding log met at its refill pace), a request as it on every try would meet its own
    // limit. So it is sent one fewer than the limit in any window, or in all, none known.
    const quota = quotaOf(burst, probe);
    const theirsAtMost = Math.max(1, quota - 1);
    const windowMs = quotaWindowMs(probe, burst.sent);
    // Three requests in flight at once, where http.concurrency allows: else one after another,
    // and a counter both share may refill between two refusals (a token every window / quota).
    const together = ctx.profile.http.concurrency >= 3;
    const refillMs = windowMs === undefined ? undefined : windowMs / quota;
    // Whether a counter both share may have given a request back between two refusals `ms` apart.
    const mayRefillIn = (ms: number): boolean => windowMs === undefined || sharedRefills(quota, windowMs, ms) > 1;
    const theirs: Sent[] = [];
    let compared = 0;
    let tooSlow = 0;
    for (let tries = 0; tries < 20 && compared < 3; tries++) {
      const windowFull = theirs.at(-theirsAtMost);
      if (windowFull !== undefined) {
        if (windowMs === undefined || windowMs > ctx.profile.http.maxRetryWaitMs) break;
        // After the wait the first client's quota may be back: it is asked again.
        if ((await sleepAfter(ctx, windowFull.at, windowMs)) > 0) last = await sendAs(ctx, probe);
      }
      if (!limitedNow(last)) {
        last = await sendAs(ctx, probe);
        continue;
      }
      // The other client's request goes out together with two of the limited client's: only
      // both of those refused shows that client limited at that very moment. Sent one after
      // another, a counter both share that refills within a round trip (10 a second, answered
      // in 50–100 ms) would serve the other client the refill between two refusals, and pass.
      const [before, theirsNow, after] = await Promise.all([sendAs(ctx, probe), sendAs(ctx, probe, other), sendAs(ctx, probe)]);
      theirs.push(theirsNow);
      last = after;
      if (!limitedNow(before) || !limitedNow(after)) continue;
      // No window known, any span may hold a refill.
      if (!together && mayRefillIn(after.at - before.left)) {
        tooSlow++;
        continue;
      }
      compared++;
      const answer = answerOf(theirsNow.res, other);
      // Only a limiter's answer shows a shared limit: a 401 or 403 says the other credential itself is not taken.
      if (answer === 'refused') throw setupError(theirsNow.res, `${describe(theirsNow.res)} as ${other.label}: the other client is not served at all, so clients cannot be compared (check rateLimit.otherCredential)`);
      if (answer !== 'served') {
        throw new CheckFailure(`${describe(theirsNow.res)} as ${other.label} (its request ${theirs.length} of this check, ${theirsAtMost} at most in a window), sent together with two requests as ${probe.client.label} that were both refused, expected it served: one client's burst limits another`, 'served', String(theirsNow.res.status), theirsNow.res.exchangeIndex);
      }
    }
    if (compared === 0 && tooSlow > 0) {
      const slow = refillMs === undefined ? 'with no window known (rateLimit.window), in which a counter both share may have given a request back between them' : `and took ${refillMs.toFixed(0)} ms or more, the time in which a counter both share gives a request back (the window over the limit)`;
      throw new CheckSkipped(`the requests as ${probe.client.label} and ${other.label} went one after another (http.concurrency ${ctx.profile.http.concurrency}) ${slow}: whether ${other.label} was served from a quota of its own cannot be told; http.concurrency 3 or more sends them together`, 'http.concurrency');
    }
    // One comparison alone may be a refill the other client's request happened to reach first
    // (three sent at once arrive in any order): two are asked for.
    if (compared === 1) throw new CheckSkipped(`${other.label} was served once while ${probe.client.label} was refused beside it, but ${probe.client.label} could not be kept limited for a second comparison in ${theirs.length} tries: one could be a refill that ${other.label}'s request reached first`);
    if (compared === 0) throw new CheckSkipped(`${probe.client.label} could not be kept limited (its quota came back in between) in ${theirs.length} tries as ${other.label}, each sent together with two of its own requests, so clients could not be compared`);
    ctx.note(`${other.label} was served ${compared} times while ${probe.client.label} was limited`);
  }),
});

export const rateLimitSharedAcrossNodes = defineCheck({
  id: 'LIM-rate-limit-shared-across-nodes',
  title: 'Every node counts against one limit',
  rule: 'The counter for a rate limit MUST be shared by all nodes (conventions §8.2): once a client has spent its quota at one node, no other node MAY serve it a fresh quota, so N nodes allow the limit of one, not N times it.',
  severity: 'must',
  needs: ['rateLimit', 'nodes'],
  schedule: 'exclusive',
  dependsOn: [enforcedId],
  run: (ctx, { rateLimit: probe, nodes }) => leavingQuotaAsFound(ctx, probe, async () => {
    // The quota is spent at one node alone: a burst through a load balancer spreads over
    // every node and empties each before the first 429, which hides counters of their own.
    const [spentAt, ...rest] = nodes as [string, ...string[]];
    // A node's own counter left short by an earlier check would refuse like a shared one.
    await wholeQuotaFirst(ctx, probe);
    const burst = await burstToLimit(ctx, probe, { baseUrl: spentAt });
    requireLimited(burst, probe);
    const quota = quotaOf(burst, probe);
    // A fresh quota elsewhere shows as about the whole limit served; a shared one refills
    // alike at every node, so what the spent node serves in the same rounds is the baseline.
    const fresh = Math.max(2, Math.ceil(quota / 2));
    // The listed nodes are asked first, together. The base URL, when the list leaves it out,
    // is asked only after them: a load balancer there routes to the listed nodes, and its
    // requests would spend a node's own counter unseen, so a fresh quota refused early.
    const listed = rest.filter((u) => u !== spentAt);
    const base = ctx.profile.baseUrl;
    const groups = [listed, base === spentAt || listed.includes(base) ? [] : [base]].filter((g) => g.length > 0);
    if (groups.length === 0) throw new CheckSkipped(`nodes names only the base URL ${spentAt}: no other node to ask`, 'nodes');
    const servedAt = new Map(groups.flat().map((n) => [n, 0]));
    // A shared counter gives back at most the limit per window, at every node together: a node
    // that wins every refill (it asks first after each) is no fresh quota. What all nodes served
    // since the counter was last seen empty (a refusal) must exceed that too, when the window is known.
    const windowMs = quotaWindowMs(probe, burst.sent);
    const refillsIn = (ms: number): number => (windowMs === undefined ? 0 : sharedRefills(quota, windowMs, ms));
    let emptySince = burst.stop!;
    let sent = burst.sent.length;
    for (const group of groups) {
      const lastServed = new Map<string, number>();
      const pending = new Set(group);
      const since = emptySince;
      let servedThere = 0;
      let servedInGroup = 0;
      /** The node of the group that served the most, and how many. */
      const busiest = () => group.map((n) => [n, servedAt.get(n)!] as const).reduce((a, b) => (b[1] > a[1] ? b : a));
      // Round robin, until every node of the group has refused once or one has served a fresh quota.
      while (pending.size > 0 && sent + pending.size + 1 <= probe.budget) {
        for (const node of pending) {
          const asked = await sendAs(ctx, probe, probe.client, node);
          // A node that has served nothing and answers an error that is no limiter's (a 404 from a path the gateway does not route, a 421) never showed a counter.
          if (answerOf(asked.res, probe.client, servedAt.get(node)! > 0, `nodes: ${node}`) === 'served') {
            servedAt.set(node, servedAt.get(node)! + 1);
            lastServed.set(node, asked.res.exchangeIndex);
            servedInGroup++;
          } else {
            pending.delete(node);
            emptySince = asked;
          }
          sent++;
        }
        const there = await sendAs(ctx, probe, probe.client, spentAt);
        if (answerOf(there.res, probe.client) === 'served') {
          servedThere++;
          servedInGroup++;
        }
        sent++;
        const [node, count] = busiest();
        const shown = group.map((n) => `${n} ${servedAt.get(n)}`).join(', ');
        // From the refusal's departure: the counter was empty when it arrived, no earlier.
        const ms = there.at - since.left;
        const refills = refillsIn(ms);
        if (count - servedThere >= fresh && servedInGroup > refills) {
          const beyond = windowMs === undefined ? '' : `, ${servedInGroup} in all in ${Math.round(ms)} ms, more than the ${refills} a counter of ${quota} per ${windowMs} ms shared by every node gives back`;
          throw new CheckFailure(
            `after ${spentAt} limited ${probe.client.label} (${burst.served} served, then 429), ${node} served ${count} more requests while ${spentAt} served ${servedThere} in the same rounds (${shown}${beyond}), expected it to refuse as ${spentAt} did: each node counts on its own, so a client gets the limit of ${quota} at every node`,
            'a 429 from every node',
            `${count} served by ${node}`,
            lastServed.get(node),
          );
        }
      }
      const undecided = [...pending];
      if (undecided.length > 0) {
        throw new CheckSkipped(`${undecided.join(', ')} neither refused ${probe.client.label} nor served a fresh quota within rateLimit.budget (${probe.budget} requests, ${burst.sent.length} of them spent at ${spentAt}): too few to tell whether the counter is shared`, 'rateLimit.budget');
      }
      // Every node refused in the end, but one served about a fresh quota first, in rounds so slow
      // (a loaded machine, a slow target) that a shared counter could have given back as much: no
      // sharing was shown, and no fresh quota either (the spent node serving as many in the same
      // rounds, its own window new again, does not show sharing).
      const [node, count] = busiest();
      if (count >= fresh) {
        const ms = Math.round(performance.now() - since.left);
        throw new CheckSkipped(`${node} served ${count} requests while ${spentAt} served ${servedThere} in the same rounds, about a fresh quota, before it refused; but the rounds took ${ms} ms, in which a counter of ${quota} per ${windowMs ?? '?'} ms shared by every node gives back ${refillsIn(ms)}: too slow to tell a shared counter from counters of their own`);
      }
    }
    ctx.note(`observed: ${spentAt} served ${burst.served} requests, then 429; then every other node refused too (${[...servedAt].map(([n, c]) => `${n} served ${c}`).join(', ')})`);
  }),
});

export const rateLimitChecks = [rateLimitEnforced, retryAfterTruthful, rateLimitPerClient, rateLimitSharedAcrossNodes];
