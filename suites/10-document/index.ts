/** The API's own OpenAPI document, held to by every answer of the run. */
import { defineSection } from '../../src/model/check.js';
import { bodyMatchesSchema, mediaTypeDocumented, requiredHeaders, statusDocumented } from './answers.js';

export default defineSection('DOC', [statusDocumented, mediaTypeDocumented, bodyMatchesSchema, requiredHeaders]);
