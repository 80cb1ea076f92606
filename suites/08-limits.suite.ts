import { registerChecks } from '../src/runner/register.js';
import { limitChecks } from './08-limits/index.js';

registerChecks(limitChecks);
