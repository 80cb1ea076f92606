/** §4 Endpoints: the method contract. */
import type { Check } from '../../src/model/check.js';
import { conditionalChecks } from './conditional.js';
import { createChecks } from './creates.js';
import { deleteChecks } from './deletes.js';
import { methodSafetyChecks } from './method-safety.js';
import { paginationChecks } from './pagination.js';
import { readChecks } from './reads.js';
import { updateChecks } from './updates.js';

export const endpointChecks: readonly Check[] = [...readChecks, ...createChecks, ...updateChecks, ...deleteChecks, ...methodSafetyChecks, ...paginationChecks, ...conditionalChecks];
