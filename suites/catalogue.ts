/**
 * The check catalogue: every conventions section, in order, each registered once in its
 * folder's index.ts (a section with no checks yet is listed too, so a new check touches
 * only its own file and its section). Importing it loads no engine and no HTTP stack.
 */
import type { Check, SectionChecks } from '../src/model/check.js';
import constraints from './01-constraints/index.js';
import resources from './02-resources/index.js';
import states from './03-states/index.js';
import endpoints from './04-endpoints/index.js';
import authentication from './05-authentication/index.js';
import events from './06-events/index.js';
import errors from './07-errors/index.js';
import limits from './08-limits/index.js';
import versioning from './09-versioning/index.js';
import document from './10-document/index.js';

export const catalogueSections: readonly SectionChecks[] = [constraints, resources, states, endpoints, authentication, events, errors, limits, versioning, document];

export const catalogue: readonly Check[] = catalogueSections.flatMap((s) => s.checks);

/**
 * The receiver-mode checks (`restprobe webhooks check-receiver`): their subject is a team's
 * webhook receiver, which only that command gives, so `restprobe run` does not run them;
 * `restprobe checks` lists them after the catalogue.
 */
export { receiverCatalogue } from './06-events/receiver.js';
