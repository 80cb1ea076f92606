/** §3 States and transitions: what an item's state opens (its `_links` actions). */
import { defineSection } from '../../src/model/check.js';
import { linksOpenActions } from './actions.js';

export default defineSection('STA', [linksOpenActions]);
