import { describe, expect, it } from 'vitest';
import { idFromItemUrl } from './created-url.js';
import { testProfile, thingsCollection } from '../../test/support/profile.js';

describe('idFromItemUrl', () => {
  const profile = testProfile('https://api.example.com/api');
  const things = { ...thingsCollection, itemPath: '/things/{id}' };

  it('reads the id where the item path puts it, decoded, under the base URL\'s path', () => {
    expect(idFromItemUrl(profile, things, 'https://api.example.com/api/things/7')).toBe('7');
    expect(idFromItemUrl(profile, things, 'https://api.example.com/api/things/a%20b')).toBe('a b');
    expect(idFromItemUrl(profile, { ...things, itemPath: '/things/{id}/detail' }, 'https://api.example.com/api/things/42/detail')).toBe('42');
  });

  it('reads none from a URL of another shape', () => {
    expect(idFromItemUrl(profile, things, 'https://api.example.com/api/things/')).toBeUndefined();
    expect(idFromItemUrl(profile, things, 'https://api.example.com/api/things/7/children/8')).toBeUndefined();
    expect(idFromItemUrl(profile, things, 'https://api.example.com/other/7')).toBeUndefined();
  });
});
