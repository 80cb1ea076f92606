/** §3 States and transitions: what an item's state opens (its `_links` actions), and refresh-token rotation. */
import { defineSection } from '../../src/model/check.js';
import { linksOpenActions } from './actions.js';
import { refreshChecks } from './refresh-rotation.js';

export default defineSection('STA', [linksOpenActions, ...refreshChecks]);
