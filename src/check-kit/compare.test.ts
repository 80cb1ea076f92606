import { describe, expect, it } from 'vitest';
import { valuesNotStored } from './compare.js';

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
