/**
 * §4 rule 6: a retried POST carries an `Idempotency-Key`; the server stores the key and
 * the first result and answers a repeat with that result (draft-ietf-httpapi-idempotency-key-header).
 */
import { randomUUID } from 'node:crypto';
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { alteredBody } from '../../src/check-kit/altered-body.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WalkableCollection, WritableCollection } from '../../src/model/needs.js';
import { brief, describe, ensure } from '../../src/check-kit/expect.js';
import { diffRepresentations } from '../../src/check-kit/compare.js';
import { itemPath } from '../../src/check-kit/probes.js';
import { fetchMarkedPage, pagePath } from '../../src/check-kit/pagination.js';
import { freshMark } from '../../src/check-kit/fresh-mark.js';
import { setupError } from '../../src/check-kit/setup.js';
import { isObject } from '../../src/model/json.js';
import { errorAs2xx, isErrorAs2xx } from '../../src/check-kit/problem.js';
import { waitFor } from '../../src/check-kit/wait.js';

/** A fresh key, as the draft's own example sends it: an sf-string holding a bare UUID, which a server that checks keys are UUIDs takes (draft §2.2, §2.5). */
const freshKey = (): string => `"${randomUUID()}"`;

/** The create body, with a mark of its own where the collection has a mark field. */
function createBody(ctx: CheckContext, c: WritableCollection): Record<string, unknown> {
  return { ...c.createBody, ...freshMark(ctx, c) };
}

const ok = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

/** POST `body` to the collection with `key` (none: no header); anything it creates is cleaned up. */
function post(ctx: CheckContext, c: WritableCollection, body: Record<string, unknown>, key?: string): Promise<HttpResponse> {
  return ctx.sendCreating(c, { method: 'POST', path: c.path, json: body, ...(key !== undefined && { headers: { 'Idempotency-Key': key } }) });
}

const idOf = (res: HttpResponse, c: WritableCollection): unknown => (res.json as Record<string, unknown> | null | undefined)?.[c.idField];

/**
 * The first POST with a fresh key, and the key it took: the draft's quoted form first, then,
 * where that is refused with a 4xx, a bare UUID (Java's UUID.fromString, .NET's Guid.TryParse
 * and Python's uuid.UUID refuse the quotes; most providers send bare tokens). A create that
 * failed both ways is a setup error, not the rule's verdict.
 */
async function firstCreate(ctx: CheckContext, c: WritableCollection, body: Record<string, unknown>): Promise<{ readonly first: HttpResponse; readonly key: string }> {
  const quoted = freshKey();
  const res = await post(ctx, c, body, quoted);
  if (ok(res)) return { first: res, key: quoted };
  // A refusal of the request's form (400, 422) may be the key's quotes; a 401, 403 or 409 is about something else.
  if (res.status === 400 || res.status === 422) {
    const bare = randomUUID();
    const again = await post(ctx, c, body, bare);
    if (ok(again)) {
      ctx.note(`${describe(res)} for the key in the draft's quoted form (${quoted}): the key is sent bare, as most providers send it (${bare})`);
      return { first: again, key: bare };
    }
    throw setupError(again, `a create with an Idempotency-Key failed: POST ${c.path} answered ${res.status} with the key quoted and ${again.status} with it bare`);
  }
  throw setupError(res, `a create with an Idempotency-Key failed: POST ${c.path} answered ${res.status}`);
}

/** The cause a retry that creates again shares with a reused key that creates again: the key names no operation. */
const keyNotHeld = (c: WritableCollection): string => `POST ${c.path} does not hold an Idempotency-Key to its first request`;

/** Fails unless the items listed under `mark` are one: the retry `again` created no second resource. */
async function expectOneMarked(ctx: CheckContext, c: WalkableCollection, mark: string, again: HttpResponse): Promise<void> {
  const filters = { [c.markField]: mark };
  const listed = (await fetchMarkedPage(ctx, c, { filters })).items.map((i) => String(i[c.idField]));
  // Items under the check's own mark are restprobe's: cleaned up with the rest.
  for (const id of listed) ctx.track(ctx.http.url(itemPath(c, id)));
  if (listed.length > 1) {
    throw new CheckFailure(`the retry with the same Idempotency-Key (${describe(again)}) made a second resource: ${pagePath(c, { filters })} lists ${listed.length} (${brief(listed)}), expected the one the first POST created`, '1 item', String(listed.length), again.exchangeIndex, keyNotHeld(c));
  }
}

export const idempotencyKeyReplay = defineCheck({
  id: 'END-idempotency-key-replay',
  title: 'A POST retried with its Idempotency-Key gets the stored result: one resource',
  rule: 'A POST repeated with the same `Idempotency-Key` and the same body MUST get the stored first result (the same status and the same resource) and create nothing more (counted by the body\'s mark where the collection has one); a POST without the key MUST still work (the method contract\'s POST; the key is for retries, §4 rule 6).',
  severity: 'must',
  needs: ['writable'],
  uses: ['anyWalk'],
  dependsOn: ['END-post-201-location'],
  async run(ctx, { writable: c, anyWalk }) {
    const body = createBody(ctx, c);
    const { first, key } = await firstCreate(ctx, c, body);
    const again = await postPastInFlight(ctx, c, body, key, 'the retry');
    // What exists, not only what was answered: a retry may replay the answer and still create.
    if (anyWalk) await expectOneMarked(ctx, anyWalk, body[anyWalk.markField] as string, again);
    else ctx.note('no marked collection (collections[].mark among filters): what the retry created is judged by its answer only');
    const [id, againId] = [idOf(first, c), idOf(again, c)];
    ensure(again.status === first.status, `the retry with the same Idempotency-Key: ${describe(again)}, expected the stored ${first.status}`, String(first.status), String(again.status));
    if (id !== undefined && String(againId) !== String(id)) {
      throw new CheckFailure(`the retry with the same Idempotency-Key: ${describe(again)} returned "${c.idField}" ${brief(againId)}, expected the stored ${brief(id)}: a second resource`, String(id), brief(againId), again.exchangeIndex, keyNotHeld(c));
    }
    const location = first.headers['location'];
    // A store that keeps the status and body alone replays no Location: the same resource by its id, noted.
    if (location !== undefined && again.headers['location'] === undefined && id !== undefined) ctx.note(`the retry's answer carries no Location (the first named ${location}): the store replays the status and body, and the body names the same ${c.idField} ${brief(id)}`);
    else if (location !== undefined && again.headers['location'] !== location) {
      throw new CheckFailure(`the retry with the same Idempotency-Key: ${describe(again)} names ${again.headers['location'] ?? 'no Location'}, expected the stored ${location}: a second resource`, location, again.headers['location'] ?? 'none', again.exchangeIndex, keyNotHeld(c));
    }
    if (isObject(first.json)) {
      const diff = diffRepresentations(first.json, (again.json ?? {}) as Record<string, unknown>, c.volatileFields);
      ensure(diff.length === 0, `the retry with the same Idempotency-Key returned another body (${diff.slice(0, 3).join('; ')}), expected the stored result`, brief(first.json), brief(again.json));
    }
    ctx.note(`POST ${c.path} twice with Idempotency-Key ${key}: one resource${id === undefined ? '' : ` (${c.idField} ${brief(id)})`}`);
    const plain = await post(ctx, c, createBody(ctx, c));
    ensure(ok(plain), `a POST without an Idempotency-Key: ${describe(plain)}, expected the create to work as before (the key is for retries)`, '2xx', String(plain.status));
  },
});

/**
 * POSTs with a key used a moment ago: a store that commits the key after it answers may still
 * hold the first request as in flight, and answer 409, after which the draft lets a client
 * retry (§2.7). Sent once more, 500 ms later, noted; that answer is the one judged.
 */
async function postPastInFlight(ctx: CheckContext, c: WritableCollection, body: Record<string, unknown>, key: string, what: string): Promise<HttpResponse> {
  const res = await post(ctx, c, body, key);
  if (res.status !== 409) return res;
  ctx.note(`${what} with the key right after the first answer got 409 (the first request still in flight, as the idempotency-key draft §2.7 answers it): sent again once, 500 ms later`);
  await waitFor(ctx, 500);
  return post(ctx, c, body, key);
}

export const idempotencyKeyMismatch = defineCheck({
  id: 'END-idempotency-key-mismatch',
  title: 'An Idempotency-Key reused with another body is refused',
  rule: 'A POST that reuses a stored `Idempotency-Key` with another body SHOULD be refused with a 4xx (the idempotency-key draft §2.7 gives 422; Stripe answers 400) and create nothing: a key names one operation (§4 rule 6).',
  severity: 'should',
  needs: ['writable'],
  // A server that ignores keys altogether fails the replay check; this one would only repeat it.
  dependsOn: ['END-post-201-location', 'END-idempotency-key-replay', 'ERR-validation-422'],
  async run(ctx, { writable: c }) {
    const body = createBody(ctx, c);
    // Another operation: a mark of its own, or (a collection without one) one value changed; the same body again is a retry, which the server rightly replays.
    const otherBody = c.markField !== undefined ? createBody(ctx, c) : alteredBody(body, c.idField, 'other');
    if (otherBody === undefined) throw new CheckSkipped(`the create body has no string field to change and ${c.name} no mark field, so no other body can be sent with the key`, 'collections[].mark');
    const { first, key } = await firstCreate(ctx, c, body);
    // A 409 at once may be the first request still in flight, not the key's refusal of the other body.
    const other = await postPastInFlight(ctx, c, otherBody, key, 'the other body');
    if (other.status >= 400 && other.status < 500) {
      // A value changed by hand may break the field's own rules (a format, a length, an enum),
      // which validation refuses before any key is looked at: the body is sent once more with a
      // key of its own, and must be taken there for the refusal to be the key's.
      if (c.markField === undefined) {
        const alone = await post(ctx, c, otherBody, key.startsWith('"') ? freshKey() : randomUUID());
        if (!ok(alone)) throw new CheckSkipped(`the reused key with another body was refused with ${other.status}, but that body is refused with a key of its own too (${describe(alone)}): the body, not the key, was refused, so the key's reuse was not judged (a mark field, collections[].mark, gives another body that is valid)`, 'collections[].mark');
      }
      ctx.note(`the reused key was refused with ${other.status}`);
      return;
    }
    const [id, otherId] = [idOf(first, c), idOf(other, c)];
    // A refusal answered with a 2xx is ERR-no-error-body-on-2xx's finding, met here again.
    const created = ok(other) && !isErrorAs2xx(other) && (otherId === undefined || String(otherId) !== String(id));
    const what = isErrorAs2xx(other) ? 'an error answered with a 2xx' : created ? 'a new resource was created' : ok(other) ? 'the first result came back for another request' : 'not a client error';
    const cause = isErrorAs2xx(other) ? errorAs2xx : created ? keyNotHeld(c) : undefined;
    throw new CheckFailure(`the same Idempotency-Key with another body: ${describe(other)} (${what}), expected a 4xx (422)`, 'a 4xx (422)', String(other.status), other.exchangeIndex, cause);
  },
});

export const idempotencyChecks = [idempotencyKeyReplay, idempotencyKeyMismatch];
