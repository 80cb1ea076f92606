/** Every check passes against the clean reference server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCheck } from '../src/engine/execute.js';
import { catalogue } from '../suites/catalogue.js';
import { startTarget, type Target } from './support/target.js';

let target: Target;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => target.close());

describe('the clean reference server', () => {
  it.each(catalogue.map((c) => [c.id, c] as const))('passes %s', async (_id, check) => {
    const result = await executeCheck(check, { profile: target.profile, client: target.client, seed: 1 });
    expect({ status: result.status, message: result.message }).toEqual({ status: 'pass', message: '' });
  });

  it('is left as it was found: every check cleans up what it created', async () => {
    const res = await target.client.send({
      method: 'GET',
      url: `${target.server.url}/v2/projects?limit=100`,
      headers: { 'x-api-key': target.server.secrets.RESTPROBE_API_KEY },
    });
    expect(JSON.parse(res.body.toString()).data).toEqual([]);
  });
});
