import { registerChecks } from '../src/runner/register.js';
import { endpointChecks } from './04-endpoints/index.js';

registerChecks(endpointChecks);
