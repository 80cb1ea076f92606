/** §7 Errors: status codes and problem+json bodies. */
import type { Check } from '../../src/model/check.js';
import { badInputChecks } from './bad-input.js';
import { problemDetailsChecks } from './problem-details.js';
import { statusCodeChecks } from './status-codes.js';

export const errorChecks: readonly Check[] = [...problemDetailsChecks, ...statusCodeChecks, ...badInputChecks];
