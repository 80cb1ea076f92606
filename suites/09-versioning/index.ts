/** §9 Versioning and the §3 deprecation flow of an API version. */
import { defineSection } from '../../src/model/check.js';
import { compatibleWithinMajor } from './compatibility.js';
import { noQueryScheme } from './query-scheme.js';
import { tolerantReader } from './tolerant-reader.js';
import { versionChecks } from './versions.js';

export default defineSection('VER', [...versionChecks, noQueryScheme, tolerantReader, compatibleWithinMajor]);
