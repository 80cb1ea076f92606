/**
 * API keys as a resource (conventions §5: a key names an application; a leaked key is
 * rotated): POST mints one and shows it once, GET shows everything but the key, DELETE
 * revokes it. A minted key authenticates until it is deleted.
 *
 * The create response holds a secret, so it is never stored by any cache (RFC 6749 §5.1
 * asks the same of token responses: `Cache-Control: no-store`, `Pragma: no-cache`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { KeyRing } from './auth.js';
import { param, requiredBody, type Operation } from './context.js';
import { notFound, validationFailed } from './problem.js';
import { emptyReply, jsonReply } from './respond.js';
import type { Route } from './router.js';

export const apiKeysPath = '/v2/api-keys';

interface ApiKey {
  readonly id: string;
  readonly name: string;
  /** The first characters, so a person can tell keys apart without seeing them. */
  readonly prefix: string;
  readonly created_at: string;
}

export function apiKeyRoutes(keys: KeyRing): Route<Operation>[] {
  const minted = new Map<string, ApiKey>();
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
            const name = requiredBody(ctx)['name'];
            if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) {
              throw validationFailed([{ field: 'name', message: 'must be a string of 1 to 100 characters' }]);
            }
            const secret = `rk_${randomBytes(24).toString('base64url')}`;
            const key: ApiKey = { id: randomUUID(), name, prefix: secret.slice(0, 7), created_at: new Date().toISOString() };
            minted.set(key.id, key);
            keys.add(key.id, secret);
            return { ...jsonReply(201, { ...key, key: secret }, { Location: `${apiKeysPath}/${key.id}` }), holdsSecret: true };
          },
        },
      },
    },
    {
      pattern: `${apiKeysPath}/:id`,
      operations: {
        GET: { handler: (ctx) => jsonReply(200, find(param(ctx, 'id'))) },
        DELETE: {
          handler: (ctx) => {
            const key = find(param(ctx, 'id'));
            minted.delete(key.id);
            keys.remove(key.id);
            return emptyReply(204);
          },
        },
      },
    },
  ];
}
