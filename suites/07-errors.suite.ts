import { registerChecks } from '../src/runner/register.js';
import { errorChecks } from './07-errors/index.js';

registerChecks(errorChecks);
