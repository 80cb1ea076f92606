import { registerChecks } from '../src/runner/register.js';
import { constraintChecks } from './01-constraints/index.js';

registerChecks(constraintChecks);
