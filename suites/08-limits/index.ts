/** §8 Limits: page-size caps and caching. */
import type { Check } from '../../src/model/check.js';
import { cachingChecks } from './caching.js';
import { pageLimitChecks } from './page-limits.js';

export const limitChecks: readonly Check[] = [...pageLimitChecks, ...cachingChecks];
