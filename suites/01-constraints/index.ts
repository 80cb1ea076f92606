/** §1 Constraints: the layered system. */
import { defineSection } from '../../src/model/check.js';
import { constraintChecks } from './layered-system.js';

export default defineSection('CON', constraintChecks);
