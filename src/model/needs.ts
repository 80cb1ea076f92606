/**
 * The need vocabulary: what a check needs from the target's config before it can run.
 * The engine resolves a check's needs before calling it and hands it the values; an unmet
 * need is a skip that names the exact config key, and no request is sent.
 *
 * Each config section declares the needs it meets beside its schema, loader and profile type
 * (`src/config/sections/<section>/needs.ts`); this module composes them. Adding a need is one
 * entry in its section's object (or here, for a run input). A misspelt need fails to compile
 * where a check names it, and so does a config key that is not in {@link ConfigKey}.
 *
 * @example
 * ```ts
 * const check = defineCheck({
 *   id: 'END-get-item-200', needs: ['writable'], …,
 *   async run(ctx, { writable }) { const item = await ctx.create(writable); … },
 * });
 * ```
 */
import { authNeeds } from '../config/sections/auth/needs.js';
import { collectionNeeds } from '../config/sections/collections/needs.js';
import { oauthNeeds } from '../config/sections/oauth/needs.js';
import { rateLimitNeeds } from '../config/sections/rate-limit/needs.js';
import { runNeeds } from '../config/sections/run/needs.js';
import { targetNeeds } from '../config/sections/target/needs.js';
import { versionNeeds } from '../config/sections/version/needs.js';
import { webhooksNeeds } from '../config/sections/webhooks/needs.js';
import { need } from './need.js';
import type { TargetProfile } from './profile.js';
import type { RunInputs } from './run-inputs.js';
import type { ShapeBaseline } from './shape.js';
import type { OpenApiDocument } from './openapi-document.js';
import { Unmet } from './unmet.js';
import { resolveReceiver, type ReceiverTarget } from './receiver-need.js';

export { Unmet };
export type { Need } from './need.js';
export { creatable, isSettableSortField, maxCapToFill, supports } from '../config/sections/collections/needs.js';
export type { ActionItems, CappedWalk, NestedCollection, SortableWalk, WalkableCollection, WritableCollection } from '../config/sections/collections/needs.js';
export { isConfidential } from '../config/sections/oauth/needs.js';
export type { CodeFlowClient, ConfidentialClient, JwtAccess, OAuthClient, SigningKey } from '../config/sections/oauth/needs.js';
export type { ProbeClient, RateLimitProbe } from '../config/sections/rate-limit/needs.js';
export type { WebhookProbe } from '../config/sections/webhooks/needs.js';

/** Every need a check can declare: the sections', and the run inputs'. */
export const needs = {
  ...collectionNeeds,
  ...runNeeds,
  ...targetNeeds,
  ...authNeeds,
  ...oauthNeeds,
  ...versionNeeds,
  ...rateLimitNeeds,
  ...webhooksNeeds,
  /** The response shapes an earlier report recorded: a run input (`--baseline`), not a fact of the target. */
  baseline: need<ShapeBaseline>({ label: 'an earlier report to compare with', keys: ['--baseline'], resolve: (_p, inputs) => inputs.baseline ?? new Unmet('no earlier report to compare with', '--baseline') }),
  /** The API's OpenAPI document (`openapi`), read before the run: every answer of the run is held to it. */
  openapi: need<OpenApiDocument>({ label: "the API's OpenAPI document", keys: ['openapi'], resolve: (_p, inputs) => inputs.openapi ?? new Unmet('no OpenAPI document given to hold the answers to', 'openapi') }),
  /** A team's webhook receiver to send signed deliveries to: a run input of `restprobe webhooks check-receiver`. */
  receiver: need<ReceiverTarget>({ label: 'a webhook receiver to send deliveries to', keys: ['webhooks check-receiver'], resolve: resolveReceiver }),
} as const;

export type NeedName = keyof typeof needs;
/** What a met need hands the check. */
export type NeedValue<K extends NeedName> = Exclude<ReturnType<(typeof needs)[K]['resolve']>, Unmet>;
/** The values of the needs a check declared, by name. */
export type Resolved<N extends NeedName> = { readonly [K in N]: NeedValue<K> };

/** Resolves `names` in order: their values, or the first that is not met. */
export function resolveNeeds(names: readonly NeedName[], profile: TargetProfile, inputs: RunInputs = {}): Record<string, unknown> | Unmet {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = needs[name].resolve(profile, inputs);
    if (value instanceof Unmet) return value;
    out[name] = value;
  }
  return out;
}

/** The values of the optional needs that are met. */
export function resolveOptional(names: readonly NeedName[], profile: TargetProfile, inputs: RunInputs = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = needs[name].resolve(profile, inputs);
    if (!(value instanceof Unmet)) out[name] = value;
  }
  return out;
}
