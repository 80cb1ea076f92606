/** §5 Authentication: credentials, scopes, tokens, transport. No checks yet: a check added here is listed in this call. */
import { defineSection } from '../../src/model/check.js';

export default defineSection('AUT', []);
