/**
 * What the runner hands to the suite files through vitest's provide/inject.
 */
import type { CheckResult } from '../model/check.js';
import type { TargetProfile } from '../model/profile.js';
import type { Selection } from '../engine/select.js';

export interface RunSettings {
  readonly profile: TargetProfile;
  readonly seed: number;
  readonly selection: Selection;
}

declare module 'vitest' {
  export interface ProvidedContext {
    restprobe: RunSettings;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    restprobe?: CheckResult;
  }
}
