/** §2 Resources and fields: JSON representations and sub-collections. */
import { defineSection } from '../../src/model/check.js';
import { pathDesign } from './design.js';
import { linksResolve } from './links.js';
import { representationChecks } from './representations.js';

export default defineSection('RES', [...representationChecks, linksResolve, pathDesign]);
