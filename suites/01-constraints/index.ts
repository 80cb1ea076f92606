/** §1 Constraints: the layered system. */
export { constraintChecks } from './layered-system.js';
