/** The OAuth client the run and the checks share (src/oauth/oauth-metadata.ts), for checks. */
export * from '../oauth/oauth-metadata.js';
