/** §8 Limits: page-size caps and caching. */
import { defineSection } from '../../src/model/check.js';
import { cachingChecks } from './caching.js';
import { pageLimitChecks } from './page-limits.js';

export default defineSection('LIM', [...pageLimitChecks, ...cachingChecks]);
