/** The OAuth client the run and the checks share (src/oauth/api-token.ts), for checks. */
export * from '../oauth/api-token.js';
