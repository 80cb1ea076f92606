/** The API's own OpenAPI document: every answer of the run held to it, and each create held to its request schema. */
import { defineSection } from '../../src/model/check.js';
import { bodyMatchesSchema, mediaTypeDocumented, requiredHeaders, statusDocumented } from './answers.js';
import { invalidBodiesRefused, validBodiesAccepted } from './bodies.js';

export default defineSection('DOC', [statusDocumented, mediaTypeDocumented, bodyMatchesSchema, requiredHeaders, validBodiesAccepted, invalidBodiesRefused]);
