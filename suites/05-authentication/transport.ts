/** §5.11–5.12: HTTPS only, with HSTS on every response, and a plain-HTTP URL that redirects and serves nothing. */
import { CheckFailure, CheckSkipped, ShouldFailure, defineCheck } from '../../src/model/check.js';
import type { HttpResponse } from '../../src/model/context.js';
import { describe, ensure, expectEvery, summarise } from '../../src/check-kit/expect.js';
import { errorProbes, sharedGet } from '../../src/check-kit/probes.js';

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a Strict-Transport-Security value is not a well-formed one with max-age > 0 (RFC 6797 §6.1), or undefined. */
export function hstsProblem(value: string | undefined): string | undefined {
  if (value === undefined) return 'no Strict-Transport-Security';
  const directives = value.split(';').map((d) => d.trim()).filter((d) => d !== '');
  const names = directives.map((d) => d.split('=')[0]!.trim().toLowerCase());
  if (new Set(names).size !== names.length) return `Strict-Transport-Security "${value}" repeats a directive`;
  const maxAge = directives.find((d) => /^max-age\s*=/i.test(d));
  if (maxAge === undefined) return `Strict-Transport-Security "${value}" has no max-age`;
  const seconds = /^max-age\s*=\s*(?:"(\d+)"|(\d+))$/i.exec(maxAge);
  if (seconds === null) return `Strict-Transport-Security "${value}": max-age is not a number of seconds`;
  if (Number(seconds[1] ?? seconds[2]) <= 0) return `Strict-Transport-Security "${value}": max-age 0 tells the browser to forget HTTPS`;
  return undefined;
}

export const hsts = defineCheck({
  id: 'AUT-hsts',
  title: 'HTTPS only, with Strict-Transport-Security on every response',
  rule: 'The API MUST be served over HTTPS only, and every HTTPS response MUST carry a well-formed `Strict-Transport-Security` with `max-age` > 0 (conventions §5.12; RFC 6797 §6.1, §7.1).',
  severity: 'must',
  needs: [],
  async run(ctx) {
    const base = new URL(ctx.profile.baseUrl);
    if (base.protocol === 'http:') {
      if (loopback.has(base.hostname)) throw new CheckSkipped(`the base URL is plain HTTP on a loopback address (a local server): run against its HTTPS URL (the reference server: restprobe serve --tls, then run with --ca)`, 'baseUrl');
      throw new CheckFailure(`the base URL ${ctx.profile.baseUrl} is plain HTTP, expected the API served over HTTPS only`, 'https://', 'http://');
    }
    const responses: HttpResponse[] = [
      await sharedGet(ctx, { path: ctx.collections[0]?.path ?? '/' }),
      // Errors too: a gateway's 404 is a response of the host.
      await errorProbes.unknownPath(ctx),
      await ctx.http.send({ method: 'GET', path: '/', auth: false }),
    ];
    // ASP.NET Core's HSTS middleware leaves out localhost, 127.0.0.1 and [::1] by default, and a
    // browser records no HSTS for an IP address (RFC 6797 §8.1): on a loopback host, a header that is
    // missing everywhere says nothing of the deployed host. One sent is judged all the same.
    if (loopback.has(base.hostname) && responses.every((r) => r.headers['strict-transport-security'] === undefined)) {
      throw new CheckSkipped(`no response from the loopback host ${base.hostname} carries Strict-Transport-Security, which servers leave out there (ASP.NET Core's default) and browsers would not record: run against the deployed host name to judge it`, 'baseUrl');
    }
    const problemOf = (r: HttpResponse): string | undefined => {
      const why = hstsProblem(r.headers['strict-transport-security']);
      return why === undefined ? undefined : `${describe(r)}: ${why}`;
    };
    expectEvery(responses, problemOf, (bad, all, found) => `${bad} of ${all} HTTPS responses break the rule — ${found}; expected Strict-Transport-Security with max-age > 0`, 'Strict-Transport-Security: max-age=N, N > 0');
  },
});

/** Whether a response's body holds JSON other than a problem: the API's data (a page, an item). */
const servesData = (res: HttpResponse): boolean => res.json !== undefined && res.mediaType !== 'application/problem+json';

export const httpsRedirect = defineCheck({
  id: 'AUT-https-redirect',
  title: 'Plain HTTP redirects to HTTPS and serves no data',
  rule: 'A request over plain HTTP MUST get a redirect (3xx) with a Location on `https://`, and never the API\'s data (conventions §5.12), and SHOULD get a permanent one, 301 or 308 (RFC 6797 §7.2; RFC 9110 §15.4). No credential is sent to it.',
  severity: 'must',
  needs: ['plainHttpUrl'],
  // The redirect is the rule's subject: a pass rests on it.
  judges: ['3xx'],
  async run(ctx, { plainHttpUrl }) {
    const path = ctx.collections[0]?.path ?? '/';
    const res = await ctx.http.send({ method: 'GET', url: `${plainHttpUrl}${path}`, auth: false });
    ensure(res.status < 200 || res.status > 299, `${describe(res)} over plain HTTP: it served the API, expected a redirect to HTTPS`, '3xx to https://', String(res.status));
    ensure(res.status >= 300 && res.status <= 399, `${describe(res)} over plain HTTP, expected a redirect (301 or 308 best) to HTTPS`, '3xx to https://', String(res.status));
    const location = res.headers['location'] ?? '';
    ensure(location.startsWith('https://'), `${describe(res)} redirects to ${location || 'nowhere (no Location)'}, expected an https:// URL`, 'Location: https://…', location || 'none');
    // A redirect that serves data in its body still hands the API out over plain HTTP.
    ensure(!servesData(res), `${describe(res)} over plain HTTP redirects, but its body holds JSON data (${summarise(res)}), expected no data over plain HTTP`, 'no data', summarise(res));
    // A temporary redirect (302; 307 is ASP.NET Core's default) reaches HTTPS too: permanence is the SHOULD.
    if (res.status !== 301 && res.status !== 308) throw new ShouldFailure(`${describe(res)} over plain HTTP is a temporary redirect to ${location}, expected a permanent one, 301 or 308 (RFC 6797 §7.2: SHOULD; 308 keeps the method)`, '301 or 308', String(res.status), res.exchangeIndex);
  },
});

export const transportChecks = [hsts, httpsRedirect];
