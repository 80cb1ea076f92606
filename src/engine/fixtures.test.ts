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
