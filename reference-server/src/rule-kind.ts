/**
 * A resource kind whose fields are all described by {@link FieldRules} (projects,
 * members): the body is checked against the rules, nothing else. Kinds with fields the
 * rules cannot express (a task's owning project) build their own.
 */
import { faultActive } from './request-faults.js';
import type { JsonObject } from './body.js';
import type { RequestContext } from './context.js';
import type { ResourceKind, Write } from './resources.js';
import type { Collection, Entry, Fields } from './store.js';
import { applyFields, resetOptionalFields, throwIfInvalid, type FieldRules } from './validation.js';

export interface RuleKindSpec<D extends Fields> {
  readonly noun: string;
  readonly store: Collection<D>;
  readonly itemPath: (id: string) => string;
  /** Writable fields, in representation order; the data type `D` must be what they produce. */
  readonly rules: FieldRules;
  /** Runs before the rules (where a fault can bend the handling of a body). */
  readonly beforeBuild?: (body: JsonObject, ctx: RequestContext) => void;
  readonly afterDelete?: (entry: Entry<D>) => void;
  readonly afterWrite?: (entry: Entry<D>) => void;
  /** The item's `_links`; none by default. */
  readonly links?: ResourceKind<D>['links'];
}

/** Fields the server sets, which a client may echo back. */
const serverFields: ReadonlySet<string> = new Set(['id', 'created_at', 'updated_at']);

export function ruleKind<D extends Fields>(spec: RuleKindSpec<D>): ResourceKind<D> {
  const { noun, store, itemPath, rules, beforeBuild, afterDelete, afterWrite, links } = spec;
  return {
    noun,
    store,
    itemPath,
    build(body: JsonObject, write: Write<D>, ctx: RequestContext): D {
      beforeBuild?.(body, ctx);
      // Client-sent id, created_at, updated_at and other unknown fields are not rules: ignored.
      const { values, errors } = applyFields(rules, body, write.mode, write.current);
      if (write.creating && faultActive('unknown-field-refused')) {
        // Fault: a strict reader refuses what it does not know, against §9.5.
        for (const field of Object.keys(body)) if (!Object.hasOwn(rules, field) && !serverFields.has(field)) errors.push({ field, message: 'is not a field of this resource' });
      }
      throwIfInvalid(errors);
      return values as D; // every rule passed, so the shape holds
    },
    resetOptional(current: D): D {
      return resetOptionalFields(rules, current) as D;
    },
    ...(afterDelete === undefined ? {} : { afterDelete }),
    ...(afterWrite === undefined ? {} : { afterWrite }),
    ...(links === undefined ? {} : { links }),
  };
}
