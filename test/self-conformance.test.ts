/** Every check passes against the clean reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { catalogue } from '../suites/catalogue.js';
import { cleanServerExceptions, startTarget, type Target } from './support/target.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => target.close());

describe('the clean reference server', () => {
  it.each(catalogue.map((c) => [c.id, c] as const))('passes %s', async (_id, check) => {
    const result = await executeCheck(check, { profile: target.profile, client: target.client, seed: 1 });
    const expected = cleanServerExceptions[check.id]?.status ?? 'pass';
    expect({ status: result.status, message: expected === 'pass' ? result.message : '' }).toEqual({ status: expected, message: '' });
  });

  it('passes the page-shape check on an offset-paginated collection too (no next_cursor there)', async () => {
    const profile = { ...target.profile, collections: [...target.profile.collections].reverse() };
    expect(profile.collections[0]!.pagination.style).toBe('offset');
    const check = catalogue.find((c) => c.id === 'END-get-collection-200')!;
    const result = await executeCheck(check, { profile, client: target.client, seed: 1 });
    expect({ status: result.status, message: result.message }).toEqual({ status: 'pass', message: '' });
  });

  it.each(['/v2/projects', '/v2/members'])('is left as it was found: every check cleaned up what it created in %s', async (path) => {
    const res = await target.client.send({
      method: 'GET',
      url: `${target.server.url}${path}?limit=100`,
      headers: { 'x-api-key': target.server.secrets.RESTPROBE_API_KEY },
    });
    expect(JSON.parse(res.body.toString()).data).toEqual([]);
  });
});
