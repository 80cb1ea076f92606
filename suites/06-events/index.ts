/** §6 Events: webhooks. No checks yet: a check added here is listed in this call. */
import { defineSection } from '../../src/model/check.js';

export default defineSection('EVT', []);
