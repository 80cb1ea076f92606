/** §3 States and transitions: credential and API lifecycle. No checks yet: a check added here is listed in this call. */
import { defineSection } from '../../src/model/check.js';

export default defineSection('STA', []);
