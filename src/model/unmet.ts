import type { ConfigKey } from './config-keys.js';

/**
 * Why a need is not met, and the config key (or flag) that would meet it. It stands alone so
 * that every module of needs can import it without importing the vocabulary.
 *
 * @example
 * ```ts
 * return new Unmet('no collection with a create body', 'collections[].create.body');
 * ```
 */
export class Unmet {
  constructor(
    readonly reason: string,
    readonly configKey: ConfigKey,
  ) {}
}
