/** The OAuth client the run and the checks share (src/oauth/oauth-client-auth.ts), for checks. */
export * from '../oauth/oauth-client-auth.js';
