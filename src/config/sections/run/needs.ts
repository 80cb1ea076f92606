/** What checks need of the run's own settings: that it may write, that it may hurt the target. */
import { need } from '../../../model/need.js';
import { Unmet } from '../../../model/unmet.js';

/** The needs the run's settings (`safety`, `--read-only`, `--no-destructive`) meet. */
export const runNeeds = {
  /** A run that may send writes (not `--read-only`). */
  mayWrite: need<true>({
    label: 'a run that may write',
    keys: ['safety.readOnly'],
    resolve: (p) => (p.safety.readOnly ? new Unmet('read-only run: this check sends writes', 'safety.readOnly') : true),
  }),
  /** A run that may send probes that can hurt a target (not `--no-destructive`). */
  destructive: need<true>({
    label: 'a run that may send probes that can hurt the target',
    keys: ['safety.destructive'],
    resolve: (p) => (p.safety.destructive ? true : new Unmet('safety.destructive is false: no probe that can hurt the target', 'safety.destructive')),
  }),
} as const;
