/** §4 Endpoints: the method contract, pagination and conditional requests. */
import { defineSection } from '../../src/model/check.js';
import { conditionalChecks } from './conditional.js';
import { createChecks } from './creates.js';
import { deleteChecks } from './deletes.js';
import { idempotencyChecks } from './idempotency.js';
import { methodSafetyChecks } from './method-safety.js';
import { paginationChecks } from './pagination.js';
import { readChecks } from './reads.js';
import { updateChecks } from './updates.js';

export default defineSection('END', [...readChecks, ...createChecks, ...idempotencyChecks, ...updateChecks, ...deleteChecks, ...methodSafetyChecks, ...paginationChecks, ...conditionalChecks]);
