/** §5 Authentication: credentials, scopes, sessions, transport. */
import { defineSection } from '../../src/model/check.js';
import { credentialChecks } from './credentials.js';
import { scopeChecks } from './scopes.js';
import { sessionChecks } from './sessions.js';
import { transportChecks } from './transport.js';

export default defineSection('AUT', [...credentialChecks, ...scopeChecks, ...sessionChecks, ...transportChecks]);
