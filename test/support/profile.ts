/** A hand-made TargetProfile for unit tests: short timeouts, optional API key. */
import type { CollectionProfile, TargetProfile } from '../../src/model/profile.js';

export interface TestProfileOptions {
  /** Header that carries the key, or null for no credentials. Default `X-API-Key`. */
  readonly keyHeader?: string | null;
  readonly apiKey?: string;
  readonly readOnly?: boolean;
}

export function testProfile(baseUrl: string, options: TestProfileOptions = {}): TargetProfile {
  const secret = { envName: 'API_KEY', value: options.apiKey ?? 'sk-test-4f9c2e7a1b3d5f60' };
  const header = options.keyHeader === undefined ? 'X-API-Key' : options.keyHeader;
  return {
    baseUrl,
    auth: header === null ? { queryParams: [] } : { apiKey: { header, value: secret }, queryParams: [] },
    collections: [],
    nodes: [],
    secretEndpoints: [],
    http: { timeoutMs: 300, maxBodyBytes: 1 << 20, concurrency: 1, maxRetryWaitMs: 60_000 },
    safety: { readOnly: options.readOnly ?? false, maxRequests: 1_000, destructive: true },
    properties: {},
    secrets: header === null ? [] : [secret],
  };
}

/** A cursor-paged collection at `/things`, marked by `label`: what the tests' small stand-in servers serve. */
export const thingsCollection: CollectionProfile = {
  name: 'things', path: '/things', itemPath: '/things/{id}', idField: 'id', createBody: { name: 'thing' }, volatileFields: [], newId: 'none',
  pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' }, filters: ['label'], sorts: [], markField: 'label',
};
