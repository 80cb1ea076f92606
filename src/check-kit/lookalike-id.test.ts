import { describe, expect, it } from 'vitest';
import { lookalikeId } from './probes.js';

describe('lookalikeId', () => {
  it('keeps an ObjectId 24 lower-case hex digits, and differs from it', () => {
    const known = '64f0c2a1b3d4e5f6a7b8c9d0';
    const ids = Array.from({ length: 20 }, () => lookalikeId(known));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(ids.every((id) => id === known)).toBe(false);
  });

  it('keeps a prefix, each character kind and the separators', () => {
    expect(lookalikeId('cus_9s6XKzAb1')).toMatch(/^cus_[0-9][a-z][0-9][A-Z][A-Z][a-z][A-Z][a-z][0-9]$/);
    expect(lookalikeId('usr-2024-ab')).toMatch(/^[a-z]{3}-[0-9]{4}-[a-z]{2}$/);
  });
});
