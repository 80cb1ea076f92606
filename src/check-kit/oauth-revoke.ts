/** The OAuth client the run and the checks share (src/oauth/oauth-revoke.ts), for checks. */
export * from '../oauth/oauth-revoke.js';
