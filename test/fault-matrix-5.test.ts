/** Share 5 of 6 of the fault matrix (see fault-matrix.test.ts). */
import { faultMatrix } from './support/fault-matrix.js';

faultMatrix(4, 6);
