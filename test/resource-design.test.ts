/**
 * RES-path-design (issue 17) on stand-ins: another API's plain plural paths with integer
 * ids conform; a gateway that serves the API at a singular path, and a configured
 * sub-collection nested three levels deep, do not (no reference fault needed).
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../src/engine/run.js';
import { worstFinding, type CheckResult } from '../src/model/result.js';
import type { TargetProfile } from '../src/model/profile.js';
import { HttpClient } from '../src/http/client.js';
import { catalogue } from '../suites/catalogue.js';
import { startItemsServer } from './support/items-server.js';
import { startTarget, startVariant } from './support/target.js';
import { jsonOf, pathOf, withJson, type Rewrites } from './support/rewriting-proxy.js';

const design = catalogue.filter((c) => c.id === 'RES-path-design');
const judge = async (profile: TargetProfile, client: HttpClient): Promise<CheckResult> => worstFinding((await runChecks({ profile, checks: design, seed: 1, client })).results)!;

describe('RES-path-design', () => {
  it('passes on another API: /things with integer ids', async () => {
    const items = await startItemsServer();
    const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 2, maxRequests: 1_000 });
    try {
      const result = await judge(items.profile(), client);
      expect([result.status, result.message]).toEqual(['pass', '']);
      expect(items.requests).toContain('POST /things');
    } finally {
      await client.close();
      await items.close();
    }
  });

  it('does not judge a link to another origin (GitHub\'s html link to a web page, a CDN\'s file); a link of the API\'s own still is', async () => {
    // Before, github.com/octocat/Hello-World/pull/1347 was judged as an API path, and failed ("Hello-World" is not lowercase).
    const linking = (href: string): Rewrites => ({
      response: (res, req) => {
        if (req.method !== 'POST' || pathOf(req) !== '/v2/projects' || res.status !== 201) return res;
        const body = jsonOf(res);
        return withJson(res, { ...body, _links: { ...body._links, html: { href } } });
      },
    });
    for (const [href, status] of [['https://github.com/octocat/Hello-World/pull/1347', 'pass'], ['/v2/Hello_World', 'fail']] as const) {
      const target = await startVariant(linking(href));
      try {
        const result = await judge(target.profile, target.client);
        expect([result.status, result.message], href).toEqual(status === 'pass' ? ['pass', ''] : ['fail', expect.stringMatching(/^\/v2\/Hello_World \(_links\.html of /)]);
        if (status === 'pass') expect(result.evidence.notes).toContainEqual(expect.stringMatching(/^not judged, on another origin than the API's: https:\/\/github\.com\/octocat\/Hello-World\/pull\/1347/));
      } finally {
        await target.close();
      }
    }
  });

  it('fails a singular collection path and a sub-collection nested three levels deep', async () => {
    const target = await startTarget();
    try {
      const [first, ...rest] = target.profile.collections;
      const singular = await judge({ ...target.profile, safety: { ...target.profile.safety, readOnly: true }, collections: [{ ...first!, path: '/v2/project' }, ...rest] }, target.client);
      expect([singular.status, singular.message]).toEqual(['fail', expect.stringMatching(/^\/v2\/project \(collections\[\]\.path of projects\): "project" names a collection but is not plural/)]);
      const child = first!.children![0]!;
      const deep = await judge({ ...target.profile, safety: { ...target.profile.safety, readOnly: true }, collections: [{ ...first!, children: [{ ...child, path: '/v2/projects/{id}/tasks/{id}/comments' }] }] }, target.client);
      expect([deep.status, deep.message]).toEqual(['fail', expect.stringMatching(/nests 3 levels \(projects → tasks → comments\)/)]);
    } finally {
      await target.close();
    }
  });
});
