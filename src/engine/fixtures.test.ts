import { describe, expect, it } from 'vitest';
import { SharedFixtures } from './fixtures.js';

describe('SharedFixtures.lease', () => {
  it('makes a value once for concurrent askers, again once it expires, and again after a failure', async () => {
    const fixtures = new SharedFixtures();
    let made = 0;
    let life = 60_000;
    const acquire = async () => ({ value: ++made, expiresAt: Date.now() + life });
    expect(await Promise.all([fixtures.lease('t', acquire), fixtures.lease('t', acquire), fixtures.lease('t', acquire)])).toEqual([1, 1, 1]);
    expect(made).toBe(1);
    await fixtures.close();

    const again = new SharedFixtures();
    life = -1;
    expect(await again.lease('t', acquire)).toBe(2);
    expect(await again.lease('t', acquire)).toBe(3);
    await expect(again.lease('u', () => Promise.reject(new Error('token endpoint down')))).rejects.toThrow('down');
    life = 60_000;
    expect(await again.lease('u', acquire)).toBe(4);
    await again.close();
    await expect(again.lease('u', acquire)).rejects.toThrow(/ended/);
  });
});

describe('SharedFixtures.fixture', () => {
  it('makes a fixture once for every asker, lets the next asker retry a failed one, and releases each once when the run ends', async () => {
    const fixtures = new SharedFixtures();
    const released: string[] = [];
    let made = 0;
    const make = async () => ++made;
    const release = (key: string) => async () => void released.push(key);
    expect(await Promise.all([fixtures.fixture('fill', make, release('fill')), fixtures.fixture('fill', make, release('fill'))])).toEqual([1, 1]);
    expect(made).toBe(1);
    // A failed attempt is not kept: the asker waiting on it makes the fixture for itself.
    let attempts = 0;
    const flaky = async () => (++attempts === 1 ? Promise.reject(new Error('POST answered 500')) : attempts);
    const [first, second] = await Promise.allSettled([fixtures.fixture('flaky', flaky, release('flaky')), fixtures.fixture('flaky', flaky, release('flaky'))]);
    expect(first).toMatchObject({ status: 'rejected' });
    expect(second).toEqual({ status: 'fulfilled', value: 2 });
    expect(released).toEqual([]);
    await fixtures.close();
    expect(released.sort()).toEqual(['fill', 'flaky']);
    await expect(fixtures.fixture('fill', make, release('fill'))).rejects.toThrow(/ended/);
  });
});
