/**
 * API keys as a resource (conventions §5: a key names an application; a leaked key is
 * rotated): POST mints one and shows it once, GET shows everything but the key, DELETE
 * revokes it. A minted key authenticates until it is deleted.
 *
 * A key carries scopes (`scopes.ts`): those asked for in `scopes`, or by default those
 * of the credentials that mint it. Nobody can mint a key that may do more than they may:
 * asking for a scope the minter lacks is 403 (a question of rights, not of the body's
 * shape, which is 422).
 *
 * The create response holds a secret, so it is never stored by any cache (RFC 6749 §5.1
 * asks the same of token responses: `Cache-Control: no-store`, `Pragma: no-cache`).
 */
import { faultActive } from './request-faults.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { KeyRing } from './auth.js';
import type { JsonObject } from './body.js';
import { param, requiredBody, type Operation } from './context.js';
import { genericProblem, notFound, ProblemError, validationFailed, type FieldError } from './problem.js';
import { emptyReply, jsonReply } from './respond.js';
import type { Route } from './router.js';
import { grants, isScope, type Scope } from './scopes.js';

export const apiKeysPath = '/v2/api-keys';

/** The most scopes one key may list. */
const maxScopes = 32;

interface ApiKey {
  readonly id: string;
  readonly name: string;
  /** The first characters, so a person can tell keys apart without seeing them. */
  readonly prefix: string;
  readonly scopes: readonly Scope[];
  readonly created_at: string;
}

/** `name` and `scopes` from a create body; throws 422 naming each bad field. */
function readCreateBody(body: JsonObject): { name: string; scopes: Scope[] | undefined } {
  const errors: FieldError[] = [];
  const name = body['name'];
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) {
    errors.push({ field: 'name', message: 'must be a string of 1 to 100 characters' });
  }
  const scopes = body['scopes'];
  const valid =
    scopes === undefined ||
    (Array.isArray(scopes) && scopes.length <= maxScopes && scopes.every((s): s is Scope => typeof s === 'string' && isScope(s)));
  if (!valid) {
    errors.push({ field: 'scopes', message: `must be an array of at most ${maxScopes} scopes, each "read:<resource>" or "write:<resource>" (or "read:*", "write:*")` });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { name: name as string, scopes: scopes === undefined ? undefined : [...new Set(scopes as Scope[])] };
}

export function apiKeyRoutes(keys: KeyRing): Route<Operation>[] {
  const minted = new Map<string, ApiKey>();
  // Fault `minted-secret-readable` keeps the secrets it should have forgotten.
  const kept = new Map<string, string>();
  const find = (id: string): ApiKey => {
    const key = minted.get(id);
    if (key === undefined) throw notFound('No API key exists with this id.');
    return key;
  };
  return [
    {
      pattern: apiKeysPath,
      operations: {
        POST: {
          body: 'required',
          handler: (ctx) => {
            const { name, scopes: asked } = readCreateBody(requiredBody(ctx));
            const held = ctx.credentials?.scopes ?? [];
            const beyond = (asked ?? []).filter((s) => !grants(held, s));
            if (beyond.length > 0) {
              throw new ProblemError(genericProblem(403, `A key cannot be given scopes its minter lacks: ${beyond.join(', ')}.`));
            }
            const secret = `rk_${randomBytes(24).toString('base64url')}`;
            const key: ApiKey = { id: randomUUID(), name, prefix: secret.slice(0, 7), scopes: asked ?? [...held], created_at: new Date().toISOString() };
            minted.set(key.id, key);
            keys.add(key.id, secret, key.scopes);
            if (faultActive('minted-secret-readable')) kept.set(key.id, secret);
            return { ...jsonReply(201, { ...key, key: secret }, { Location: `${apiKeysPath}/${key.id}` }), holdsSecret: true };
          },
        },
      },
    },
    {
      pattern: `${apiKeysPath}/:id`,
      operations: {
        GET: {
          handler: (ctx) => {
            const key = find(param(ctx, 'id'));
            const secret = kept.get(key.id);
            return secret === undefined ? jsonReply(200, key) : jsonReply(200, { ...key, key: secret });
          },
        },
        DELETE: {
          handler: (ctx) => {
            const key = find(param(ctx, 'id'));
            minted.delete(key.id);
            kept.delete(key.id);
            // Fault `revoked-key-accepted`: the record goes, the key keeps working.
            if (!faultActive('revoked-key-accepted')) keys.remove(key.id);
            return emptyReply(204);
          },
        },
      },
    },
  ];
}
