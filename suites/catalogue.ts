/**
 * The check catalogue: the list of sections, each registered once in its folder's
 * index.ts. Importing it loads no engine and no HTTP stack (`restprobe checks`, the docs).
 */
import type { Check, SectionChecks } from '../src/model/check.js';
import constraints from './01-constraints/index.js';
import endpoints from './04-endpoints/index.js';
import errors from './07-errors/index.js';
import limits from './08-limits/index.js';

export const catalogueSections: readonly SectionChecks[] = [constraints, endpoints, errors, limits];

export const catalogue: readonly Check[] = catalogueSections.flatMap((s) => s.checks);
