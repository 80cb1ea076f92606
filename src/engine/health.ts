/**
 * Damage containment: a health probe before the run and after each check that may hurt
 * the target (the `last` class). When the target no longer answers as it did, the run
 * says once "the target stopped working after CHECK", with both answers as evidence, and
 * blocks the checks after it instead of blaming them.
 */
import { connect as tlsConnect } from 'node:tls';
import type { Damage, Health } from '../model/run-outcome.js';
import type { TargetProfile } from '../model/profile.js';
import { RestprobeError } from '../errors.js';
import type { Send } from '../http/guards.js';
import { runRequestHeaders, resolveUrl, versionedUrl } from '../http/session.js';

export type { Damage, Health };

/** One probe request and what came of it, kept whole: the health phase and the damage check read the same answers. */
interface ProbeAnswer {
  readonly path: string;
  readonly status?: number;
  readonly challenge?: string;
  readonly error?: unknown;
}

/** The probe's requests: GET the base URL, and the first collection, with the run's credentials. */
async function probe(profile: TargetProfile, send: Send, paths = ['/', ...(profile.collections[0] ? [profile.collections[0].path] : [])]): Promise<ProbeAnswer[]> {
  const out: ProbeAnswer[] = [];
  for (const path of paths) {
    try {
      // The base URL itself, as a user gave it (`/api`, not `/api/`), then the collection under it.
      const url = path === '/' ? profile.baseUrl : resolveUrl(profile.baseUrl, path);
      const res = await send({ method: 'GET', url: versionedUrl(profile, url), headers: await runRequestHeaders(profile) });
      const challenge = res.headers['www-authenticate'];
      out.push({ path, status: res.status, ...(challenge !== undefined && { challenge: String(challenge) }) });
    } catch (error) {
      out.push({ path, error });
    }
  }
  return out;
}

/** Errors that say nothing of the target's health: a spent budget, a rate limit, a stop. */
const sayNothing: readonly string[] = ['ERR_REQUEST_BUDGET', 'ERR_RATE_LIMITED', 'ERR_INTERRUPTED', 'ERR_HARNESS'];

/** `GET /v2/projects → 200`, `→ ERR_TIMEOUT`, or `→ unknown` when the probe learned nothing. */
function lineOf(a: ProbeAnswer): string {
  if (a.status !== undefined) return `GET ${a.path} → ${a.status}`;
  const code = a.error instanceof RestprobeError ? a.error.code : undefined;
  return `GET ${a.path} → ${code !== undefined && sayNothing.includes(code) ? 'unknown' : (code ?? 'failed')}`;
}

/**
 * GETs the base URL and the first collection, as the health phase does before the run; after
 * a check, given that `baseline`, one of them again, one request: the first collection where
 * it answered 2xx–4xx before, else the base URL where that did (a listing that failed from the
 * start cannot show a target that stopped working since: a 500 that became a proxy's 502 is
 * still a 5xx).
 *
 * @example
 * ```ts
 * const baseline = await probeHealth(profile, send); // ['GET / → 200', 'GET /v2/projects → 200']
 * await probeHealth(profile, send, baseline); // ['GET /v2/projects → 500']
 * ```
 */
export async function probeHealth(profile: TargetProfile, send: Send, baseline?: Health): Promise<Health> {
  if (baseline === undefined) return (await probe(profile, send)).map(lineOf);
  const answered = (line: string | undefined) => line !== undefined && ['2', '3', '4'].includes(statusClass(line));
  const [base, collection] = baseline;
  const again = answered(collection) || !answered(base) ? (profile.collections[0]?.path ?? '/') : '/';
  return (await probe(profile, send, [again])).map(lineOf);
}

/**
 * The run's health phase, before any check: every problem that is restprobe's side, not the
 * target's verdict, ends the run here with one error (exit 2 or 3): a target that does not
 * answer, a proxy that fails, a TLS certificate the client does not trust, the run's token
 * not issued, credentials the target refuses, or credentials it wants and the config does
 * not give. Any other answer (a reset, a huge body, garbage, a slow collection) is for the
 * checks to judge. What it saw is the baseline the damage check compares with, so the run
 * does not probe again.
 *
 * @example
 * ```ts
 * const health = await healthPhase(profile, (req) => client.send(req)); // throws ERR_TARGET_UNREACHABLE, ERR_CREDENTIALS_REJECTED…
 * await runChecks({ profile, checks, seed, client, health });
 * ```
 */
export async function healthPhase(profile: TargetProfile, send: Send): Promise<Health> {
  // The API's access token from auth.oauth, got first: a refusal ends the run here, saying so.
  await profile.auth.apiKey?.issued?.fresh();
  const answers = await probe(profile, send);
  const problem = harnessSideProblem(profile, answers) ?? (await speaksTls(profile, answers));
  if (problem !== undefined) throw problem;
  return answers.map(lineOf);
}

/**
 * An http:// base URL whose every probe lost its connection before any answer: a server that
 * speaks TLS closes a plain request that way (every check would end in the same error). A TLS
 * handshake with it tells; the certificate is not judged here, only that it speaks TLS.
 */
async function speaksTls(profile: TargetProfile, answers: ProbeAnswer[]): Promise<RestprobeError | undefined> {
  const base = new URL(profile.baseUrl);
  if (base.protocol !== 'http:' || profile.http.proxy !== undefined || !answers.every((a) => a.error instanceof RestprobeError && a.error.code === 'ERR_PROTOCOL')) return undefined;
  const port = Number(base.port || 80);
  const handshake = await new Promise<boolean>((resolve) => {
    const socket = tlsConnect({ host: base.hostname.replace(/^\[|\]$/g, ''), port, rejectUnauthorized: false, timeout: Math.min(profile.http.timeoutMs, 3_000) }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
  if (!handshake) return undefined;
  const https = profile.baseUrl.replace(/^http:/, 'https:');
  return new RestprobeError('ERR_TARGET_UNREACHABLE', `cannot reach ${profile.baseUrl}: the server speaks TLS and closes plain HTTP requests (did you mean ${https}?)`);
}

function harnessSideProblem(profile: TargetProfile, [base, collection]: ProbeAnswer[]): RestprobeError | undefined {
  const transport = [base, collection].map((a) => a?.error).find((e): e is RestprobeError => e instanceof RestprobeError && ['ERR_TLS_UNTRUSTED', 'ERR_PROXY', 'ERR_REQUEST_BUDGET'].includes(e.code));
  if (transport !== undefined) return new RestprobeError(transport.code, transport.message.replace(/^GET \S+: /, ''));
  const unreached = base?.error;
  if (unreached instanceof RestprobeError && (unreached.code === 'ERR_TARGET_UNREACHABLE' || unreached.code === 'ERR_TIMEOUT')) {
    const via = profile.http.proxy === undefined ? '' : ` through the proxy ${profile.http.proxy}`;
    return new RestprobeError(unreached.code, `cannot reach ${profile.baseUrl}${via}: ${unreached.message.replace(/^GET \S+: /, '')}`);
  }
  // The target answered: how its collection answers (slowly, or not at all) is for the checks to judge, unless it wants credentials.
  if (collection?.status !== 401) return undefined;
  const key = profile.auth.apiKey;
  if (key) {
    const check = key.issued === undefined ? `check $${key.value.envName} (auth.apiKey)` : 'is it the token this API takes (auth.apiKey.fromOAuth; auth.oauth.scopes and parameters)?';
    return new RestprobeError('ERR_CREDENTIALS_REJECTED', `the target refused the configured credentials: GET ${collection.path} answered 401; ${check}`);
  }
  return new RestprobeError('ERR_CREDENTIALS_MISSING', `the target wants credentials: GET ${collection.path} answered 401${collection.challenge ? ` (WWW-Authenticate: ${collection.challenge.slice(0, 80)})` : ''}; configure auth.apiKey`);
}

/** A health line's status class (`2` … `5`), `none` for no answer, `unknown` where the probe learned nothing. */
const statusClass = (line: string): string => (line.endsWith('→ unknown') ? 'unknown' : (/→ (\d)\d\d$/.exec(line)?.[1] ?? 'none'));

/** The request of a health line: `GET /v2/projects` of `GET /v2/projects → 200`. */
const requestOf = (line: string): string => line.slice(0, line.lastIndexOf(' → '));

/** The lines of `before` for the requests `now` sent again. */
export function sameRequests(before: Health, now: Health): Health {
  return before.filter((line) => now.some((n) => requestOf(n) === requestOf(line)));
}

/** Whether the target answers worse than before to a request sent both times: a status class that changed, or no answer. */
export function worse(before: Health, now: Health): boolean {
  return now.some((line) => {
    const was = before.find((b) => requestOf(b) === requestOf(line));
    return was !== undefined && statusClass(was) !== 'unknown' && statusClass(line) !== statusClass(was) && (statusClass(line) === '5' || statusClass(line) === 'none');
  });
}
