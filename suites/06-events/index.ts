/** §6 Events: webhooks the target sends, judged by restprobe's own listener. */
import { defineSection } from '../../src/model/check.js';
import { senderChecks } from './webhooks.js';

export default defineSection('EVT', senderChecks);
