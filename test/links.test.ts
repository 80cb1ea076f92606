/**
 * `_links` checks (issue 17) on stand-ins: HAL-style links (`{ "href": … }`) conform as well
 * as bare paths; an API that shows no links at all is not judged by RES-links-resolve
 * (hypermedia is optional) but fails the actions its config names. Actions on a top-level
 * collection's items (`collections[].actions`, a project's restoration) are judged as a
 * sub-collection's are: proven with the sub-collection's actions taken out of the config.
 */
import { describe, expect, it } from 'vitest';
import { jsonOf, type ProxiedRequest, type ProxiedResponse, type Rewrites } from './support/rewriting-proxy.js';
import { adjustProjects, startVariant } from './support/target.js';
import { isObject } from '../src/model/json.js';
import type { TargetProfile } from '../src/model/profile.js';
import { verdictsOf } from './support/verdicts.js';

/** The reference config with actions on the top-level projects only (the tasks' completion left out). */
const topLevelOnly = (p: TargetProfile): TargetProfile => ({ ...p, collections: p.collections.map((c) => ({ ...c, children: (c.children ?? []).map((k) => ({ ...k, actions: [] })) })) });

const ids = ['RES-links-resolve', 'STA-links-open-actions'] as const;

function verdicts(rewrites: Rewrites, faults: readonly string[] = [], adjust?: (p: TargetProfile) => TargetProfile) {
  return verdictsOf(startVariant(rewrites, faults), ids, adjust);
}

/** Rewrites the `_links` of every JSON item and page item in a response. */
function mapLinks(change: (links: Record<string, string>) => Record<string, unknown> | undefined): (res: ProxiedResponse) => ProxiedResponse {
  const item = (x: Record<string, unknown>) => {
    if (x['_links'] === undefined) return x;
    const { _links, ...rest } = x;
    const changed = change(_links as Record<string, string>);
    return changed === undefined ? rest : { ...rest, _links: changed };
  };
  return (res: ProxiedResponse) => {
    const body = jsonOf(res);
    if (body === undefined || body === null || typeof body !== 'object') return res;
    const next = Array.isArray(body.data) ? { ...body, data: body.data.map(item) } : item(body);
    return { ...res, body: JSON.stringify(next) };
  };
}

describe('_links checks', () => {
  it('pass on HAL-style links ({ "href": path })', async () => {
    const got = await verdicts({ response: mapLinks((links) => Object.fromEntries(Object.entries(links).map(([k, v]) => [k, { href: v }]))) });
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'pass' });
  });

  it('pass with HAL templated links: /v2/projects{?q} followed as /v2/projects, one with a path variable left not followed', async () => {
    const got = await verdicts({ response: mapLinks((links) => ({ ...links, search: { href: '/v2/projects{?q}', templated: true }, find: { href: '/v2/projects/{id}', templated: true } })) });
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'pass' });
  });

  it('fail a templated link whose query-free form is dead', async () => {
    const got = await verdicts({ response: mapLinks((links) => ({ ...links, search: { href: '/v2/project{?q}', templated: true } })) });
    expect(got.verdicts['RES-links-resolve'], got.explain).toBe('fail');
  });

  it('skip the links check on an API without links, and fail the actions its config names', async () => {
    const got = await verdicts({ response: mapLinks(() => undefined) });
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'skip', 'STA-links-open-actions': 'fail' });
  });

  it('pass on a top-level collection\'s action (a project\'s restoration), configured alone', async () => {
    // RES-links-resolve is not asked: it would follow the completion link, no longer configured as an action, to a 404.
    const got = await verdicts({}, [], topLevelOnly);
    expect(got.verdicts['STA-links-open-actions'], got.explain).toBe('pass');
  });

  it.each(['link-open-action-missing', 'link-closed-action-shown', 'action-on-get'])('fail a top-level collection\'s action on fault %s', async (fault) => {
    const got = await verdicts({}, [fault], topLevelOnly);
    expect(got.verdicts['STA-links-open-actions'], got.explain).toBe('fail');
    expect(got.explain).toMatch(/STA-links-open-actions: fail .*restoration/);
  });

  it.each([
    [415, 'without Content-Type: application/json (ASP.NET [FromBody])'],
    [422, 'without a JSON object (FastAPI, a body model whose fields are all optional)'],
  ] as const)('pass where an action endpoint binds a body and refuses a POST %i %s: the action is taken with an empty JSON object', async (status, _how) => {
    let refused = 0;
    const bindsBody: Rewrites = {
      request: (req) => {
        if (req.method !== 'POST' || !/\/(restoration|completion)$/.test(req.path)) return req;
        const json = status === 415 ? req.headers['content-type']?.startsWith('application/json') === true : isObject(jsonOf(req));
        if (json) return req;
        refused++;
        return { status, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Unprocessable', status }) };
      },
    };
    const got = await verdicts(bindsBody);
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'pass' });
    expect(refused).toBe(0);
  });

  it('not fail, but say it could not take the action, where it wants a body restprobe cannot know (a required reason): a setup error naming collections[].actions', async () => {
    const wantsReason: Rewrites = {
      request: (req) => (req.method === 'POST' && /\/restoration$/.test(req.path) && typeof jsonOf(req)?.reason !== 'string' ? { status: 422, headers: { 'content-type': 'application/problem+json' }, body: JSON.stringify({ type: 'about:blank', title: 'Unprocessable', status: 422, errors: [{ field: 'reason', message: 'required' }] }) } : req),
    };
    const got = await verdicts(wantsReason, [], topLevelOnly);
    expect(got.verdicts['STA-links-open-actions'], got.explain).toBe('error');
    expect(got.explain).toMatch(/taking the open action restoration with an empty JSON object: .*422.*collections\[\]\.actions/);
  });

  it('pass where each read of an item bumps a counter the config declares volatile (collections[].volatileFields)', async () => {
    const views = new Map<string, number>();
    const counted: Rewrites = {
      response: (res, req) => {
        const body = jsonOf(res);
        if (req.method !== 'GET' || res.status !== 200 || !/^\/v2\/projects\/[^/?]+$/.test(req.path) || !isObject(body)) return res;
        const seen = (views.get(req.path) ?? 0) + 1;
        views.set(req.path, seen);
        return { ...res, body: JSON.stringify({ ...body, views: seen }) };
      },
    };
    const withViews = (p: TargetProfile): TargetProfile => adjustProjects(topLevelOnly(p), (c) => ({ volatileFields: [...c.volatileFields, 'views'] }));
    const got = await verdicts(counted, [], withViews);
    expect(got.verdicts['STA-links-open-actions'], got.explain).toBe('pass');
    expect(views.size).toBeGreaterThan(0);
  });

  it('fail when only the top-level item hides its open action', async () => {
    const onlyProjects = mapLinks((links) => (typeof links['restoration'] === 'string' ? { self: links['self'] } : links));
    const got = await verdicts({ response: onlyProjects });
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'fail' });
    expect(got.explain).toMatch(/_links has no "restoration"/);
  });

  it('pass behind a gateway prefix, whether the links name the prefix (/api/v2/…) or not (/v2/…)', async () => {
    const prefixed = (p: TargetProfile): TargetProfile => ({ ...p, baseUrl: `${p.baseUrl}/api` });
    // The gateway serves the API under /api: it takes the prefix off each request.
    const gateway = (req: ProxiedRequest): ProxiedRequest => ({ ...req, path: req.path.replace(/^\/api(?=\/|$)/, '') });
    const unaware = await verdicts({ request: gateway }, [], prefixed);
    expect(unaware.verdicts, unaware.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'pass' });
    // An API that knows its prefix names it in its links and Locations.
    const withPrefix = mapLinks((links) => Object.fromEntries(Object.entries(links).map(([k, v]) => [k, `/api${v}`])));
    const aware: Rewrites = {
      request: gateway,
      response: (res) => {
        const linked = withPrefix(res);
        const location = res.headers['location'];
        return location === undefined ? linked : { ...linked, headers: { ...linked.headers, location: `/api${location}` } };
      },
    };
    const got = await verdicts(aware, [], prefixed);
    expect(got.verdicts, got.explain).toEqual({ 'RES-links-resolve': 'pass', 'STA-links-open-actions': 'pass' });
  });
});

describe('an always-open action link taken with POST alone, on a framework whose OPTIONS knows no route (Fastify, Rails)', () => {
  /** Each project links `duplicate`, a POST-only route: GET and OPTIONS there answer 404. */
  const duplicateLink: Rewrites = {
    response: (res, req) => {
      const body = jsonOf(res);
      if (!/^\/v2\/projects(\/[^/]+)?$/.test(new URL(req.path, 'http://x').pathname) || !isObject(body) || typeof body['id'] !== 'string' || !isObject(body['_links'])) return res;
      return { ...res, body: JSON.stringify({ ...body, _links: { ...(body['_links'] as Record<string, unknown>), duplicate: `/v2/projects/${body['id']}/duplicates` } }) };
    },
  };

  it('fails RES-links-resolve, naming collections[].postLinks; named there, the link is not followed, noted', async () => {
    const unnamed = await verdictsOf(startVariant(duplicateLink), ['RES-links-resolve']);
    expect(unnamed.verdicts, unnamed.explain).toEqual({ 'RES-links-resolve': 'fail' });
    expect(unnamed.explain).toMatch(/_links\.duplicate .* → 404 .*if this link names an action taken with POST alone, where OPTIONS tells nothing, collections\[\]\.postLinks says so/);
    const named = await verdictsOf(startVariant(duplicateLink), ['RES-links-resolve'], (p) => adjustProjects(p, () => ({ postLinks: ['duplicate'] })));
    expect(named.verdicts, named.explain).toEqual({ 'RES-links-resolve': 'pass' });
    expect(named.notes.join('\n')).toMatch(/_links\.duplicate of a projects item names \S+: an action taken with POST alone \(collections\[\]\.postLinks\), not followed with GET/);
  });

  it('still fails such a link whose id was left unset (/v2/projects/undefined/duplicates), though it is not followed', async () => {
    const unsetId: Rewrites = { response: async (res, req) => { const out = await duplicateLink.response!(res, req); return { ...out, body: out.body.replace(/\/v2\/projects\/[^/"]+\/duplicates/, '/v2/projects/undefined/duplicates') }; } };
    const named = await verdictsOf(startVariant(unsetId), ['RES-links-resolve'], (p) => adjustProjects(p, () => ({ postLinks: ['duplicate'] })));
    expect(named.explain).toMatch(/_links\.duplicate of a projects item names \/v2\/projects\/undefined\/duplicates: an id left unset in its path/);
  });
});
