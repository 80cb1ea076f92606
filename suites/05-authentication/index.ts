/** §5 Authentication: credentials, scopes, sessions, transport, and OAuth tokens (token endpoint, code flow, issued JWTs, JWT attacks). */
import { defineSection } from '../../src/model/check.js';
import { credentialChecks } from './credentials.js';
import { scopeChecks } from './scopes.js';
import { sessionChecks } from './sessions.js';
import { transportChecks } from './transport.js';
import { tokenEndpointChecks } from './token-endpoint.js';
import { codeFlowChecks } from './code-flow.js';
import { issuedJwtChecks } from './issued-jwts.js';
import { jwtAttackChecks } from './jwt-attacks.js';

export default defineSection('AUT', [...credentialChecks, ...scopeChecks, ...sessionChecks, ...transportChecks, ...tokenEndpointChecks, ...codeFlowChecks, ...issuedJwtChecks, ...jwtAttackChecks]);
