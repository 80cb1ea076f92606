import { describe, expect, it } from 'vitest';
import { dottedPath } from './problems.js';
import { closestName } from './suggest.js';

describe('dottedPath', () => {
  it.each([
    ['', '(top level)'],
    ['/baseUrl', 'baseUrl'],
    ['/collections/0/create/body', 'collections[0].create.body'],
    ['/a~1b/x y', '["a/b"]["x y"]'],
  ])('%j → %s', (pointer, dotted) => {
    expect(dottedPath(pointer)).toBe(dotted);
  });
});

describe('closestName', () => {
  it('suggests near misses and nothing for different words', () => {
    expect(closestName('pth', ['name', 'path', 'itemPath'])).toBe('path');
    expect(closestName('timeoutMS', ['timeoutMs', 'concurrency'])).toBe('timeoutMs');
    expect(closestName('colour', ['name', 'path'])).toBeUndefined();
  });
});
