/**
 * Every default the loader applies, in one place. The numeric ones are the profile's own
 * ({@link profileDefaults}); `schema.test.ts` checks the schema's `default` annotations
 * (what editors show) against this object.
 */
import type { CollectionMethod } from '../model/profile.js';
import { profileDefaults } from '../model/profile.js';

export const configDefaults = {
  ...profileDefaults,
  apiKeyHeader: 'X-API-Key',
  mintSecretField: 'key',
  queryParams: [] as readonly string[],
  idField: 'id',
  newId: 'uuid',
  idType: 'string',
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as readonly CollectionMethod[],
  volatileFields: [] as readonly string[],
  readOnly: false,
  pagination: { style: 'cursor', param: 'cursor', limitParam: 'limit', offsetParam: 'offset', pageParam: 'page', firstPage: 1, sortParam: 'sort' },
  filters: [] as readonly string[],
  sorts: [] as readonly string[],
  children: [] as readonly never[],
  nodes: [] as readonly string[],
  secretEndpoints: [] as readonly never[],
  rateLimitKeyedBy: 'apiKey',
  webhookSecretField: 'secret',
  webhookActions: ['create'] as readonly ('create' | 'update' | 'delete')[],
  webhookScheme: 'standard',
  webhookSignaturePrefix: '',
  webhookSignatureEncoding: 'hex',
  webhookSignatureSigned: 'body',
  webhookToleranceSeconds: 300,
  webhookDeliveryWithinMs: 30_000,
  webhookSlowAnswerMs: 35_000,
  webhookQuietMs: 5_000,
  actions: [] as readonly string[],
  versionHeader: 'Accept',
  versionQueryParam: 'v',
  versionList: [] as readonly string[],
  jwtAlgorithms: ['RS256'] as readonly string[],
  loginCommandTimeoutMs: 30_000,
  /**
   * Claim names that are personal data (conventions §5.6: signed is not encrypted). `address`
   * stands alone or after `_`/`-` (OIDC's `address`, `home_address`), so Keycloak's
   * `clientAddress` (a machine client's IP) is not taken for a postal address.
   */
  personalDataClaims: ['e-?mail', 'phone', '^(given_|family_|middle_|nick|full_?|first_?|last_?|user_?)?name$', 'passw', '^pwd$', '(^|[_-])address', 'street', 'postal', 'zip', 'birth', 'ssn', 'iban', 'credit_?card'] as readonly string[],
  /** String values that look like personal data: an email address, a phone number. */
  personalDataValues: ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', '^\\+[1-9][0-9 ().-]{6,}[0-9]$'] as readonly string[],
} as const;
