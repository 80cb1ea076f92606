/** The OAuth client the run and the checks share (src/oauth/oauth-token.ts), for checks. */
export * from '../oauth/oauth-token.js';
