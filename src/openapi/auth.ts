/**
 * The credentials a document's security schemes call for, as `auth.*` config with the names
 * of the environment variables that will hold them, never values: an API key in a header (or
 * an HTTP bearer token, sent in Authorization) becomes `auth.apiKey`; an OAuth 2.0 scheme
 * (or OpenID Connect) becomes `auth.oauth`, with its endpoints and the scopes the collections'
 * operations ask for. What restprobe cannot send (a key in the query string, HTTP Basic,
 * mutual TLS) is said in a comment.
 */
import type { RawConfig } from '../config/raw-config.js';
import { isObject } from '../model/json.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import type { Operation } from '../document/operations.js';
import { commonKeyParams } from '../model/key-headers.js';

type RawAuth = NonNullable<RawConfig['auth']>;

export interface AuthInference {
  readonly auth?: RawAuth;
  /** The variables the config names, each with what it holds, for the header comment. */
  readonly variables: readonly { readonly name: string; readonly holds: string }[];
  readonly notes: readonly string[];
  readonly fillIns: readonly string[];
}

/** `PersonalAccessToken` → `PERSONAL_ACCESS_TOKEN`, `apiKey` → `API_KEY`. */
export function envName(prefix: string, ...parts: readonly string[]): string {
  const snake = parts.map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase()).join('_');
  return `${prefix}${/^[0-9]/.test(snake) ? `_${snake}` : snake}`;
}

/** A scope restprobe can send in `scope` (RFC 6749 §3.3 scope-token). */
const scopeToken = /^[!#-[\]-~]+$/;

function absoluteUrl(url: unknown, base: string | undefined): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url, base).href;
  } catch {
    return undefined;
  }
}

/** How often each scheme is required by the operations, for choosing among alternatives. */
function usage(ops: readonly Operation[]): Map<string, { count: number; scopes: Set<string> }> {
  const used = new Map<string, { count: number; scopes: Set<string> }>();
  for (const op of ops) {
    for (const requirement of op.security ?? []) {
      for (const [scheme, scopes] of Object.entries(requirement)) {
        const u = used.get(scheme) ?? { count: 0, scopes: new Set<string>() };
        u.count++;
        for (const s of scopes) u.scopes.add(s);
        used.set(scheme, u);
      }
    }
  }
  return used;
}

/**
 * `auth` from the document's security schemes.
 *
 * @param ops the operations of the configured collections (their requirements say which
 *   schemes matter and which OAuth scopes to request).
 * @param baseUrl what relative OAuth URLs resolve against (OpenAPI 3.1 §4.3.1).
 *
 * @example
 * ```ts
 * // securitySchemes: { ApiKeyAuth: { type: apiKey, in: header, name: X-API-Key } }
 * inferAuth(doc, ops, 'https://api.example.com', '').auth; // { apiKey: { header: 'X-API-Key', value: { env: 'API_KEY_AUTH' } } }
 * ```
 */
export function inferAuth(doc: OpenApiDocument, ops: readonly Operation[], baseUrl: string | undefined, prefix: string): AuthInference {
  const components = isObject(doc.root['components']) ? doc.root['components'] : {};
  const schemes = doc.entries(doc.child({ value: components, pointer: '/components' }, 'securitySchemes'));
  const used = usage(ops);
  // The schemes the operations use, most used first; the rest after them, in document order.
  const ordered = [...schemes].sort(([a], [b]) => (used.get(b)?.count ?? 0) - (used.get(a)?.count ?? 0));
  const auth: { apiKey?: RawAuth['apiKey']; oauth?: RawAuth['oauth']; queryParams?: string[] } = {};
  const variables: { name: string; holds: string }[] = [];
  const notes: string[] = [];
  const fillIns: string[] = [];
  for (const [name, node] of ordered) {
    const s = isObject(node.value) ? node.value : {};
    const type = s['type'];
    const where = `security scheme "${name}"`;
    if (type === 'apiKey' || (type === 'http' && String(s['scheme']).toLowerCase() === 'bearer')) {
      const header = type === 'http' ? 'Authorization' : String(s['name']);
      if (type === 'apiKey' && s['in'] !== 'header') {
        // The document's own name for a key in the URL: AUT-key-not-in-query tries it too.
        if (s['in'] === 'query' && typeof s['name'] === 'string' && s['name'] !== '' && !commonKeyParams.includes(s['name'])) (auth.queryParams ??= []).push(s['name']);
        notes.push(`${where} takes a key in the ${String(s['in'])} (${String(s['name'])}): ${s['in'] === 'query' ? 'the conventions (§5) refuse keys in the URL, so restprobe sends keys in headers only, and AUT-key-not-in-query sends one there to see it refused (auth.queryParams)' : 'restprobe sends keys in headers; a session cookie is auth.session'}`);
        continue;
      }
      if (auth.apiKey !== undefined) {
        notes.push(`${where} (${header}) is another way in; restprobe sends one key, ${auth.apiKey.header}'s`);
        continue;
      }
      const env = envName(prefix, name);
      auth.apiKey = { header, value: { env } };
      variables.push({ name: env, holds: `the credential of ${where} (${type === 'http' ? 'a bearer token' : `the ${header} header`})` });
      if (type === 'apiKey' && header.toLowerCase() === 'authorization') notes.push(`${where} puts the key in Authorization: restprobe sends it as "Bearer <key>"`);
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      if (auth.oauth !== undefined) {
        notes.push(`${where} is another authorization server; restprobe checks one, the first`);
        continue;
      }
      const flows = isObject(s['flows']) ? s['flows'] : {};
      const code = isObject(flows['authorizationCode']) ? flows['authorizationCode'] : undefined;
      const client = isObject(flows['clientCredentials']) ? flows['clientCredentials'] : undefined;
      const tokenEndpoint = absoluteUrl(code?.['tokenUrl'] ?? client?.['tokenUrl'], baseUrl);
      const authorizationEndpoint = absoluteUrl(code?.['authorizationUrl'], baseUrl);
      const discovery = typeof s['openIdConnectUrl'] === 'string' ? absoluteUrl(s['openIdConnectUrl'], baseUrl) : undefined;
      const issuer = discovery?.replace(/\/\.well-known\/(openid-configuration|oauth-authorization-server)$/, '');
      const scopes = [...(used.get(name)?.scopes ?? [])].filter((sc) => scopeToken.test(sc)).sort();
      const clientId = envName(prefix, name, 'client_id');
      const clientSecret = envName(prefix, name, 'client_secret');
      auth.oauth = {
        ...(issuer !== undefined && { issuer }),
        ...(authorizationEndpoint !== undefined && { authorizationEndpoint }),
        ...(tokenEndpoint !== undefined && { tokenEndpoint }),
        clientId: { env: clientId },
        clientSecret: { env: clientSecret },
        ...(scopes.length > 0 && { scopes }),
      };
      variables.push({ name: clientId, holds: `the OAuth client id (${where})` }, { name: clientSecret, holds: `the OAuth client secret (${where})` });
      if (issuer === undefined && tokenEndpoint === undefined) fillIns.push('auth.oauth.issuer: the authorization server (its metadata gives the endpoints): the document names no token URL restprobe can use');
      if (issuer === undefined) fillIns.push('auth.oauth.jwksUrl: where the token signing keys are published, for the AUT-jwt- checks');
      if (authorizationEndpoint !== undefined || issuer !== undefined) {
        fillIns.push("auth.oauth.redirectUri: the test client's registered redirect URI, exactly", 'auth.oauth.login: how restprobe gets a code unattended ({ form: { fields: { username: { env: … }, password: { env: … } } } } or { command: ./login.sh }), for the code-flow checks');
      }
    } else if (type === 'http') {
      notes.push(`${where} is HTTP ${String(s['scheme'])}: restprobe sends API keys and bearer tokens, not ${String(s['scheme'])} credentials`);
    } else if (type === 'mutualTLS') {
      notes.push(`${where} is mutual TLS: restprobe presents no client certificate`);
    }
  }
  if (schemes.length === 0) notes.push('the document names no security scheme: restprobe sends no credentials (the AUT- checks judge what the API answers without them)');
  fillIns.push('auth.limited: a second credential that authenticates but lacks the write scope ({ header: …, value: { env: … } }), for AUT-scope-403');
  const hasAuth = auth.apiKey !== undefined || auth.oauth !== undefined || auth.queryParams !== undefined;
  return { ...(hasAuth && { auth }), variables, notes, fillIns };
}
