/** §2 Resources and fields: resource design, field renames. No checks yet: a check added here is listed in this call. */
import { defineSection } from '../../src/model/check.js';

export default defineSection('RES', []);
