import { describe, expect, it } from 'vitest';
import { diffRepresentations, sameInstant, valuesNotStored } from './compare.js';

describe('valuesNotStored', () => {
  it('takes a number stored as the decimal string of the same value (DRF DecimalField, pydantic Decimal), noted; another value is not stored', () => {
    const notes: string[] = [];
    expect(valuesNotStored({ price: 9.9, qty: 3 }, { price: '9.90', qty: 3 }, (n) => notes.push(n))).toEqual([]);
    expect(notes).toEqual(['stored trimmed, or a number as its decimal string, judged as sent: price 9.9 → "9.90"']);
    expect(valuesNotStored({ price: 9.9 }, { price: '9.80' }, () => undefined)).toEqual(['price: 9.9 → "9.80"']);
    expect(valuesNotStored({ price: 9.9 }, { price: '9.9 EUR' }, () => undefined)).toEqual(['price: 9.9 → "9.9 EUR"']);
    // A string sent stays a string: "7" stored as 7 is another type.
    expect(valuesNotStored({ code: '7' }, { code: 7 }, () => undefined)).toEqual(['code: "7" → 7']);
  });
});

describe('sameInstant', () => {
  it.each([
    ['2026-11-28T10:00:00.123Z', '2026-11-28T10:00:00Z', true], // a DATETIME without fractions truncates
    ['2026-11-28T10:00:00.700Z', '2026-11-28T10:00:01Z', true], // or rounds (MySQL 5.6.4+)
    ['2026-11-28T10:00:00.123456789Z', '2026-11-28T10:00:00.123457Z', true], // nanoseconds kept as microseconds
    ['2026-11-28T10:00:00.123+02:00', '2026-11-28T08:00:00Z', true],
    ['2026-11-28T10:00:00.123Z', '2026-11-28T10:00:02Z', false],
    ['2026-11-28T10:00:00.123Z', '2026-11-28T10:00:00.125Z', false], // the same precision: compared as they are
    ['2026-11-28T10:00:00.1Z', '2026-11-28T10:00:00.25Z', false],
    ['2026-11-28T10:00:00.123Z', '2026-11-28T10:00:00.124Z', false], // one millisecond apart at one precision
    ['2026-11-28T10:00:00.123456Z', '2026-11-28T10:00:00.123457Z', false],
    ['2026-11-28T10:00:00.1Z', '2026-11-28T10:00:01Z', false], // neither truncated (10:00:00) nor rounded (10:00:00)
    ['2026-11-28T10:00:00.5Z', '2026-11-28T10:00:01Z', true], // rounded half up
    ['2026-11-28', '2026-11-28T00:00:00Z', false],
  ])('%s and %s: %s', (a, b, same) => {
    expect(sameInstant(a, b)).toBe(same);
  });

  it('tells apart every millisecond of a second at millisecond precision (exact, not floating point)', () => {
    const at = (ms: number) => `2026-11-28T10:00:00.${String(ms).padStart(3, '0')}Z`;
    const same = Array.from({ length: 999 }, (_, i) => sameInstant(at(i), at(i + 1))).filter(Boolean);
    expect(same).toEqual([]);
  });

  it('makes diffRepresentations take such a pair for equal, and nothing else', () => {
    expect(diffRepresentations({ created_at: '2026-11-28T10:00:00.123Z', name: 'a' }, { created_at: '2026-11-28T10:00:00Z', name: 'a' }, [])).toEqual([]);
    expect(diffRepresentations({ created_at: '2026-11-28T10:00:00.123Z' }, { created_at: '2026-11-28T10:05:00Z' }, [])).toHaveLength(1);
  });
});
