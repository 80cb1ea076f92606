/** §7 Errors: status codes and problem+json bodies. */
import { defineSection } from '../../src/model/check.js';
import { badInputChecks } from './bad-input.js';
import { problemDetailsChecks } from './problem-details.js';
import { statusCodeChecks } from './status-codes.js';

export default defineSection('ERR', [...problemDetailsChecks, ...statusCodeChecks, ...badInputChecks]);
