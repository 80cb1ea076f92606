/** §8 Limits: page-size caps, caching and rate limiting. */
import { defineSection } from '../../src/model/check.js';
import { cachingChecks } from './caching.js';
import { pageLimitChecks } from './page-limits.js';
import { rateLimitAnswerChecks } from './rate-limit-answers.js';
import { rateLimitChecks } from './rate-limits.js';

export default defineSection('LIM', [...pageLimitChecks, ...cachingChecks, ...rateLimitChecks, ...rateLimitAnswerChecks]);
