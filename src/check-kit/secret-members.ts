/** Secret-named members of a JSON body (`password`, `token`…): what redaction hides (src/http/redact.ts), for checks that judge a body holding them. */
export { configuredSecretMembers, secretMemberValues } from '../http/redact.js';
