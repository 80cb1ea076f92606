/** The second third of the fault matrix (see fault-matrix.test.ts). */
import { faultMatrix } from './support/fault-matrix.js';

faultMatrix(1, 3);
