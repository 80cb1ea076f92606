/**
 * The check catalogue: every check restprobe ships, importable without vitest (for
 * `restprobe checks`, the docs and the self-tests). The `*.suite.ts` files register
 * the same checks as vitest tests.
 */
import type { Check } from '../src/model/check.js';
import { constraintChecks } from './01-constraints/index.js';
import { endpointChecks } from './04-endpoints/index.js';
import { errorChecks } from './07-errors/index.js';
import { limitChecks } from './08-limits/index.js';

export const catalogue: readonly Check[] = [...constraintChecks, ...endpointChecks, ...errorChecks, ...limitChecks];
