import { describe, expect, it } from 'vitest';
import { mustBeRefused } from './bad-input.js';

describe('which bad inputs ERR-bad-input-no-5xx must see refused', () => {
  it('malformed JSON, unless the generated text parses after all', () => {
    expect(mustBeRefused({ kind: 'malformed-json', method: 'POST', body: '{"a":' })).toBe(true);
    expect(mustBeRefused({ kind: 'malformed-json', method: 'POST', body: '{}' })).toBe(false);
  });

  it('a body that is no object, but an array POSTed to a collection and answered with an array (a bulk create)', () => {
    expect(mustBeRefused({ kind: 'not-an-object', method: 'POST', value: null }, [])).toBe(true);
    expect(mustBeRefused({ kind: 'not-an-object', method: 'PUT', value: [] }, [])).toBe(true);
    expect(mustBeRefused({ kind: 'not-an-object', method: 'POST', value: [{ name: 'p' }] }, [{ id: 1, name: 'p' }])).toBe(false);
    // One item answered for an array: the array was taken as one item.
    expect(mustBeRefused({ kind: 'not-an-object', method: 'POST', value: [{ name: 'p' }] }, { id: 1, name: 'p' })).toBe(true);
  });

  it('the configured invalid body; never an input that may be taken (a missing field, a wrong type)', () => {
    expect(mustBeRefused({ kind: 'invalid-body' })).toBe(true);
    expect(mustBeRefused({ kind: 'missing-field', field: 'name' })).toBe(false);
    expect(mustBeRefused({ kind: 'wrong-type', method: 'POST', field: 'name', value: {} })).toBe(false);
  });
});
