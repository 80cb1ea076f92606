/**
 * Whom the rate limiter counts OAuth traffic as: a client's tokens share its one quota (a
 * token costs nothing to get, so per-token quotas multiply the limit); a user's tokens share
 * the client-and-user quota; a token that does not verify is counted by address, never
 * under the client its unverified claims name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './client.js';
import { api, clientToken, tampered, userTokens } from './oauth-client.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A quota that does not come back during a test: one request every 12 s. */
const quota = { limit: 5, windowMs: 60_000 } as const;

/** The statuses of `count` API calls sent one at a time, with `tokens` in turn. */
async function burst(s: Harness, tokens: readonly string[], count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await api(s, tokens[i % tokens.length] ?? '')).status);
  return statuses;
}

const admitted = (statuses: readonly number[]): number => statuses.filter((status) => status === 200).length;

describe('OAuth traffic under --rate-limit', () => {
  it('admits one client only its quota, however many tokens it bursts with in turn', async () => {
    const s = (h = await startHarness([], { rateLimit: quota }));
    const tokens = await Promise.all(Array.from({ length: 4 }, () => clientToken(s)));
    expect(new Set(tokens).size).toBe(4);
    const statuses = await burst(s, tokens, 20);
    expect(admitted(statuses)).toBe(quota.limit);
    // Refused from then on: 429, and 503 once it has kept sending past its quota of refusals.
    expect(statuses.slice(0, quota.limit + 1)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(statuses.slice(quota.limit).every((status) => status === 429 || status === 503)).toBe(true);
  });

  it("counts a user's tokens as one client-and-user, apart from the client's own quota", async () => {
    const s = (h = await startHarness([], { rateLimit: quota }));
    const tokens = [(await userTokens(s)).access_token, (await userTokens(s)).access_token];
    expect(admitted(await burst(s, tokens, 12))).toBe(quota.limit);
    expect((await api(s, await clientToken(s))).status).toBe(200);
  });

  it('counts tokens that do not verify by address, not under the client they claim', async () => {
    const s = (h = await startHarness([], { rateLimit: quota }));
    const forged = (await Promise.all(Array.from({ length: 8 }, () => clientToken(s)))).map(tampered);
    const statuses = await burst(s, forged, 8);
    // One address, one quota: refused as invalid (401) until it is spent, then 429.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The client they name has its whole quota still.
    expect((await api(s, await clientToken(s))).status).toBe(200);
  });
});
