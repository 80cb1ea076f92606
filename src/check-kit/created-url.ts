/** Which URL names an item a request created: the transport's rule (src/http/created-url.ts), for checks. */
export * from '../http/created-url.js';
