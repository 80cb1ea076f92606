/**
 * The authorization code flow, driven without a person (RFC 6749 §4.1, RFC 7636): the
 * authorization request, the configured login (a form restprobe fills, or the team's
 * command), and the redirect to the client whose query holds the code, state or error.
 * Redirects are followed through the authorization server's own origin only; the
 * redirect URI itself is never contacted.
 */
import { randomBytes } from 'node:crypto';
import { RestprobeError } from '../errors.js';
import type { CheckContext, HttpResponse } from '../model/context.js';
import type { AnswerClass } from '../model/check.js';
import type { CodeFlowClient, OAuthClient } from '../model/needs.js';
import { describe } from './expect.js';
import { parseLoginForm, type LoginForm } from './login-form.js';
import { runLoginCommand } from './login-command.js';
import { oauthEndpoints } from './oauth-metadata.js';
import { pkcePair } from './pkce.js';
import { requireTokens, tokenRequest, type Tokens } from './oauth-token.js';
import { setupError } from './setup.js';

/** Where an authorization request ended. */
export type AuthorizationOutcome =
  /** At a Location on the redirect URI: its query (and fragment, where an implicit grant puts tokens). */
  | { readonly kind: 'redirect'; readonly location: string; readonly query: URLSearchParams; readonly fragment: URLSearchParams; readonly response?: HttpResponse }
  /**
   * The authorization server answered without sending the user agent to the redirect URI (an
   * error page, a 4xx); `loginProblem` says what went wrong with the configured login, where
   * restprobe can tell (a field the form does not have, a consent page not approved);
   * `loginFailed` when the login itself did not go through (the form came back, a consent
   * page was left), so the request was never judged.
   */
  | { readonly kind: 'answer'; readonly response: HttpResponse; readonly loginProblem?: string; readonly loginFailed?: boolean };

/**
 * What a check about the authorization server's answers rests a pass on: its pages and
 * refusals (2xx, 4xx), and its redirects (3xx), which are the subject of the code flow's rules.
 */
export const authorizationAnswers: readonly AnswerClass[] = ['2xx', '3xx', '4xx'];

/** Hops through the authorization server before restprobe gives up. */
const maxHops = 10;

/** A state value no one can guess (RFC 6749 §10.12). */
export const newState = (): string => randomBytes(16).toString('base64url');

/** Cookies the authorization server sets during one login (its session), sent back to its origin. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly ctx: CheckContext) {}
  take(res: HttpResponse): void {
    for (const line of (res.headers['set-cookie'] ?? '').split('\n')) {
      const pair = line.split(';')[0]!.trim();
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const value = pair.slice(eq + 1);
      this.ctx.treatAsSecret(value, 'AS_COOKIE');
      this.cookies.set(pair.slice(0, eq), value);
    }
  }
  header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}

/** The outcome at the client's redirect URI; every code or token it carries is a secret at once. */
function redirectOutcome(ctx: CheckContext, location: string, response?: HttpResponse): AuthorizationOutcome {
  const u = new URL(location);
  const fragment = new URLSearchParams(u.hash.slice(1));
  for (const params of [u.searchParams, fragment]) {
    for (const name of ['code', 'access_token', 'refresh_token', 'id_token']) {
      const v = params.get(name);
      if (v) ctx.treatAsSecret(v, name === 'code' ? 'OAUTH_CODE' : name.toUpperCase());
    }
  }
  return { kind: 'redirect', location, query: u.searchParams, fragment, ...(response && { response }) };
}

/** The authorization URL with `params` added to the endpoint's own query. */
export function authorizationUrl(endpoint: string, params: Record<string, string>): string {
  const u = new URL(endpoint);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.href;
}

/**
 * Sends an authorization request with `params` and logs in as the config says when the
 * server shows its login page. Ends at the first Location that starts with `redirectUri`
 * (or with the registered one), or at the first answer that is neither a redirect within
 * the server's origin nor a login page.
 */
export async function authorize(ctx: CheckContext, client: CodeFlowClient, params: Record<string, string>): Promise<AuthorizationOutcome> {
  const endpoints = await oauthEndpoints(ctx, client.oauth);
  if (endpoints.authorizationEndpoint === undefined) throw new RestprobeError('ERR_SETUP', 'setup: the metadata names no authorization_endpoint and auth.oauth.authorizationEndpoint is not set', [], { rootCause: 'no authorization endpoint' });
  const url = authorizationUrl(endpoints.authorizationEndpoint, params);
  const targets = [params.redirect_uri ?? client.oauth.redirectUri, client.oauth.redirectUri];
  const atClient = (location: string): boolean => targets.some((t) => location.startsWith(t));
  const origin = new URL(endpoints.authorizationEndpoint).origin;
  const jar = new CookieJar(ctx);
  const login = client.oauth.login;

  // Follows the server's redirects within its origin; returns the outcome, or the page to log in on.
  const follow = async (first: HttpResponse): Promise<AuthorizationOutcome | HttpResponse> => {
    let res = first;
    for (let hop = 0; ; hop++) {
      jar.take(res);
      const location = res.headers.location;
      if (res.status < 300 || res.status > 399 || location === undefined) return res;
      // A Location that is no URL ends the flow at this answer (a hostile server's, not restprobe's, fault).
      const next = URL.canParse(location, res.url) ? new URL(location, res.url).href : undefined;
      if (next === undefined) return { kind: 'answer', response: res };
      if (atClient(next)) return redirectOutcome(ctx, next, res);
      if (new URL(next).origin !== origin || hop >= maxHops) return { kind: 'answer', response: res };
      res = await ctx.http.send({ method: 'GET', url: next, auth: false, headers: { accept: 'text/html', ...jar.header() } });
    }
  };

  const page = await follow(await ctx.http.send({ method: 'GET', url, auth: false, headers: { accept: 'text/html' } }));
  if (!('status' in page)) return page;
  // Only a page the server shows with 200 can be a login page; anything else is its answer.
  if (page.status !== 200) return { kind: 'answer', response: page };
  if (login.kind === 'command') {
    const line = await runLoginCommand(login.argv, url, login.timeoutMs, ctx.signal);
    let location: string;
    try {
      location = new URL(line).href;
    } catch {
      throw new RestprobeError('ERR_SETUP', `setup: the login command's last line is not a URL (expected the redirect URL it ended at)`, [], { rootCause: 'the login command printed no URL' });
    }
    return redirectOutcome(ctx, location);
  }
  const form = parseLoginForm(page.text, page.url);
  if (typeof form === 'string') return { kind: 'answer', response: page, loginProblem: `the page ${where(page)} holds no login form to fill (${form})` };
  // A configured field the form does not have is sent all the same (a server may read it), and named should no code come.
  const unknown = Object.keys(login.fields).filter((name) => !form.controls.includes(name));
  const fieldProblem = unknown.length === 0 ? undefined : `the login form at ${where(page)} has no field named ${unknown.join(', ')} (its fields: ${form.controls.join(', ') || 'none'}; auth.oauth.login.form.fields names them)`;
  const submit = (f: LoginForm, fields: Record<string, string>): Promise<HttpResponse> =>
    f.method === 'POST'
      ? ctx.http.send({ method: 'POST', url: f.action, auth: false, form: fields, headers: { accept: 'text/html', ...jar.header() } })
      : ctx.http.send({ method: 'GET', url: authorizationUrl(f.action, fields), auth: false, headers: { accept: 'text/html', ...jar.header() } });
  let after = await follow(await submit(form, { ...form.fields, ...login.fields }));
  // A consent page (one form, no password) is approved when the config says so: by its first submit button.
  let approved = 0;
  for (; login.consent === true && approved < maxConsentPages && 'status' in after && after.status === 200; approved++) {
    const consent = parseLoginForm(after.text, after.url);
    if (typeof consent === 'string' || consent.asksPassword || new URL(consent.action).origin !== origin) break;
    after = await follow(await submit(consent, { ...consent.fields, ...(consent.submit && { [consent.submit.name]: consent.submit.value }) }));
  }
  if (!('status' in after)) return after;
  const failed = afterLogin(after, login.consent === true, approved, origin);
  const problems = [fieldProblem, failed].filter((p) => p !== undefined);
  return { kind: 'answer', response: after, ...(problems.length > 0 && { loginProblem: problems.join('; ') }), ...(failed !== undefined && { loginFailed: true }) };
}

/** A page's URL without its query (which holds the request's parameters), for messages. */
const where = (res: HttpResponse): string => {
  const u = new URL(res.url);
  return `${u.origin}${u.pathname}`;
};

/** Where a form login ended short of the redirect URI, when restprobe can tell why: the login page again, or a consent page left unapproved. */
function afterLogin(after: HttpResponse, consent: boolean, approved: number, origin: string): string | undefined {
  // A refused login is often the login page again, with 200 or a 4xx.
  const form = after.status === 200 || (after.status >= 400 && after.status < 500) ? parseLoginForm(after.text, after.url) : undefined;
  if (form === undefined || typeof form === 'string') return undefined;
  if (form.asksPassword) return `the login form came back after it was submitted: the server did not take the login (are the username and password in auth.oauth.login.form.fields right?)`;
  if (after.status !== 200) return undefined;
  if (!consent) return `after the login the server showed a consent page (a form without a password field) that was not approved: restprobe approves it with auth.oauth.login.form.consent: true`;
  if (new URL(form.action).origin !== origin) return `the consent page submits to another origin (${new URL(form.action).origin}), which restprobe does not follow`;
  return `still on a page without a password field after approving ${approved} consent page${approved === 1 ? '' : 's'}`;
}

/** Consent pages restprobe approves after a login before it gives up (a consent, then a confirmation). */
const maxConsentPages = 2;

/** An authorization request for a code with PKCE S256 and a fresh state (and the config's extra parameters): its parameters and verifier. */
export function codeRequest(client: CodeFlowClient): { params: Record<string, string>; verifier: string; state: string } {
  const { verifier, challenge } = pkcePair();
  const state = newState();
  const params = {
    ...client.oauth.parameters,
    response_type: 'code',
    client_id: client.oauth.clientId,
    redirect_uri: client.oauth.redirectUri,
    ...(client.oauth.scopes.length > 0 && { scope: client.oauth.scopes.join(' ') }),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  return { params, verifier, state };
}

/** Why an outcome holds no code, for a setup error; undefined when it holds one. */
function noCode(o: AuthorizationOutcome): string | undefined {
  if (o.kind === 'answer') return `the authorization request ended at ${describe(o.response)} without a redirect to the redirect URI: ${o.loginProblem ?? 'is auth.oauth.login right?'}`;
  const error = o.query.get('error');
  if (error !== null) return `the authorization server redirected with error=${error}${o.query.get('error_description') ? ` (${o.query.get('error_description')})` : ''}`;
  return o.query.get('code') === null ? 'the redirect to the redirect URI carries no code' : undefined;
}

/** A code the flow must yield for the check to mean anything, else a setup error. */
export function requireCode(o: AuthorizationOutcome): string {
  const why = noCode(o);
  if (why !== undefined) {
    const res = o.response;
    if (res) throw setupError(res, `getting an authorization code failed: ${why}`, 'no authorization code');
    throw new RestprobeError('ERR_SETUP', `setup: getting an authorization code failed: ${why}`, [], { rootCause: 'no authorization code' });
  }
  return codeOf(o)!;
}

/** The code an outcome carries (already registered as a secret); undefined when it carries none. */
export function codeOf(o: AuthorizationOutcome): string | undefined {
  const code = o.kind === 'redirect' ? o.query.get('code') : null;
  return code === null || code === '' ? undefined : code;
}

/** A code, the verifier it was requested with, and the state that came back. */
export interface IssuedCode {
  readonly code: string;
  readonly verifier: string;
  readonly sentState: string;
  readonly outcome: AuthorizationOutcome & { kind: 'redirect' };
}

/** A fresh PKCE code verifier, registered as a secret, so no report shows it. */
export function secretVerifier(ctx: CheckContext): string {
  const { verifier } = pkcePair();
  ctx.treatAsSecret(verifier, 'PKCE_VERIFIER');
  return verifier;
}

/** Runs the flow to a code (a setup error when none comes). */
export async function obtainCode(ctx: CheckContext, client: CodeFlowClient): Promise<IssuedCode> {
  const { params, verifier, state } = codeRequest(client);
  ctx.treatAsSecret(verifier, 'PKCE_VERIFIER');
  const outcome = await authorize(ctx, client, params);
  const code = requireCode(outcome);
  return { code, verifier, sentState: state, outcome: outcome as IssuedCode['outcome'] };
}

/** Redeems a code at the token endpoint (RFC 6749 §4.1.3 with RFC 7636 §4.5); the answer is the caller's to judge. */
export function redeemCode(ctx: CheckContext, client: CodeFlowClient, code: string, verifier: string | undefined): Promise<HttpResponse> {
  return tokenRequest(ctx, client, { grant_type: 'authorization_code', code, redirect_uri: client.oauth.redirectUri, ...(verifier !== undefined && { code_verifier: verifier }) });
}

/** A whole code flow: the code (its verifier, the state sent and the redirect that carried it) and the tokens it was redeemed for. */
export interface CodeFlow extends IssuedCode {
  readonly tokens: Tokens;
}

/** A whole code flow of the check's own (a setup error where it stops short of tokens). */
async function codeFlow(ctx: CheckContext, client: CodeFlowClient): Promise<CodeFlow> {
  const issued = await obtainCode(ctx, client);
  return { ...issued, tokens: requireTokens(await redeemCode(ctx, client, issued.code, issued.verifier), 'redeeming an authorization code') };
}

/** Tokens of the check's own from a whole code flow (a refresh token among them, where the server issues one). */
export async function codeFlowTokens(ctx: CheckContext, client: CodeFlowClient): Promise<Tokens> {
  return (await codeFlow(ctx, client)).tokens;
}

/**
 * A whole code flow done right, once for the run: the control of every check that changes
 * the flow (a refusal of the changed request is then the change's), and the user's token
 * whose claims are judged. Each asking check holds the redirect and the token answer in its
 * own evidence. A check that spends what the flow issued (redeems the code again, refreshes,
 * revokes), or judges the authorization request itself, runs a flow of its own.
 *
 * @example
 * ```ts
 * const { tokens } = await sharedCodeFlow(ctx, client);
 * ```
 */
export function sharedCodeFlow(ctx: CheckContext, client: CodeFlowClient): Promise<CodeFlow> {
  return ctx.sharedAnswers('a code flow done right', (sender) => codeFlow(sender, client), (flow, take) => {
    const redirect = flow.outcome.response && take(flow.outcome.response);
    return { ...flow, outcome: { ...flow.outcome, ...(redirect && { response: redirect }) }, tokens: { ...flow.tokens, response: take(flow.tokens.response) } };
  });
}

/** Refreshes (RFC 6749 §6); the answer is the caller's to judge. */
export function refresh(ctx: CheckContext, client: OAuthClient, refreshToken: string): Promise<HttpResponse> {
  return tokenRequest(ctx, client, { grant_type: 'refresh_token', refresh_token: refreshToken });
}
