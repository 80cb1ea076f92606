/** §7 errors: the status code carries the result. */
import { CheckFailure, defineCheck } from '../../src/model/check.js';
import { describe, expectStatus } from '../../src/check-kit/expect.js';
import { errorAs2xx, expectProblems, isErrorAs2xx } from '../../src/check-kit/problem.js';
import { errorProbes, itemPath, lookalikeId, refusedWritesItem, sharedGet, unknownItemPath, unsupportedAccept, unsupportedContentType, unconsumedTypes } from '../../src/check-kit/probes.js';
import { firstListedId } from '../../src/check-kit/shape-probes.js';
import { uuidPattern } from '../../src/model/ids.js';
import { freshMark } from '../../src/check-kit/fresh-mark.js';
import { isRestprobeError } from '../../src/errors.js';

export const unknownId404 = defineCheck({
  id: 'ERR-unknown-id-404',
  title: 'An unknown id answers 404 problem+json',
  rule: 'GET on an item id that does not exist MUST answer 404 with a problem+json body.',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection }) {
    let res = await errorProbes.unknownItem(ctx, collection);
    // A UUID may be no id of this API's shape (a Mongo ObjectId, a prefixed id), rightly refused
    // with 400: then an id shaped like one the listing shows is the unknown id asked for.
    if (res.status === 400 || res.status === 422) {
      const known = firstListedId(await sharedGet(ctx, { path: collection.path }), collection);
      // Integer ids with collections[].idType left out (FastAPI's int, NestJS's ParseIntPipe, Spring's Long refuse a UUID).
      if (known !== undefined && /^\d+$/.test(known)) {
        ctx.note(`${describe(res)} for a UUID, where ${collection.path} lists integer ids (${known}): asked again with an unknown integer (say collections[].idType: integer)`);
        res = await ctx.http.send({ method: 'GET', path: unknownItemPath({ ...collection, idType: 'integer' }) });
      } else if (known !== undefined && known.length >= 12 && !uuidPattern.test(known)) {
        // Long enough that a random one of its shape names no item (an ObjectId's 24 characters), and no UUID itself.
        ctx.note(`${describe(res)} for a UUID, which is no id of the shape ${collection.path} lists (${known}): asked again with one shaped like it`);
        res = await ctx.http.send({ method: 'GET', path: itemPath(collection, lookalikeId(known)) });
      } else if (known === undefined) {
        // An empty listing shows no id's shape (a fresh CI database): an unknown integer, the
        // commonest other shape, is asked too, a harmless GET; its 404 is the one owed.
        const asInteger = await ctx.http.send({ method: 'GET', path: unknownItemPath({ ...collection, idType: 'integer' }) });
        if (asInteger.status === 404) {
          ctx.note(`${describe(res)} for a UUID, and ${collection.path} lists no item to show its ids' shape: an unknown integer got 404 (say collections[].idType: integer)`);
          res = asInteger;
        }
      }
    }
    expectStatus(res, 404, 'GET of an unknown id');
    expectProblems([res], 'content-type', 'application/problem+json');
  },
});

export const unknownPath404 = defineCheck({
  id: 'ERR-unknown-path-404',
  title: 'An unknown path answers 404 problem+json',
  rule: 'A request to a path that names no resource MUST answer 404 with a problem+json body.',
  severity: 'must',
  needs: [],
  async run(ctx) {
    const res = await errorProbes.unknownPath(ctx);
    expectStatus(res, 404, 'GET of an unknown path');
    expectProblems([res], 'content-type', 'application/problem+json');
  },
});

export const malformedJson400 = defineCheck({
  id: 'ERR-malformed-json-400',
  title: 'Malformed JSON answers 400',
  rule: 'A body that is not valid JSON is bad input and MUST get 400.',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    const res = await errorProbes.malformedJson(ctx, collection);
    expectStatus(res, 400, 'POST with malformed JSON');
  },
});

export const validation422 = defineCheck({
  id: 'ERR-validation-422',
  title: 'A body that fails validation answers 422',
  rule: 'Well-formed JSON that fails validation (wrong types, bad values) MUST get 422, in a create and in an update (PATCH, else PUT, to an item of restprobe\'s own) alike; where an update of another type gets 400 (bad input, §7) and the create\'s configured invalid body 422, the update is judged with that body\'s values.',
  severity: 'must',
  needs: ['writable'],
  uses: ['updatable'],
  async run(ctx, { writable: collection, updatable }) {
    const writes = [{ what: 'a create', res: await errorProbes.invalidBody(ctx, collection) }];
    if (updatable === undefined) ctx.note('no update sent: no replace or patch body (collections[].patch.body, collections[].replace.body)');
    else {
      try {
        let update = await errorProbes.invalidUpdate(ctx, updatable);
        // A wrong type answered 400 where the create's invalid body got 422: the update with the configured bad values judges validation.
        const created = writes[0]!.res;
        if (update.status === 400 && created.status === 422) {
          const values = await errorProbes.invalidValueUpdate(ctx, updatable);
          // Only a refusal stands for the update: a configured body invalid for what it leaves out makes a valid partial update.
          if (values !== undefined && values.status >= 400 && values.status < 500) {
            ctx.note(`${describe(update)} to an update of another type (bad input, §7's 400), ${describe(values)} to one with the configured invalid values: the latter is judged as validation`);
            update = values;
          } else if (values !== undefined) ctx.note(`${describe(values)} to an update with the configured invalid values, which refused nothing: the 400 to one of another type is judged`);
        }
        writes.push({ what: 'an update', res: update });
      } catch (err) {
        // No item to update (its create failed, or named no item): the create checks judge that; the POST is still this check's.
        if (!isRestprobeError(err, 'ERR_SETUP') && !(err instanceof CheckFailure)) throw err;
        ctx.note(`no update sent: ${err.message}`);
      }
    }
    // Each write is judged: a create that validates says nothing of an update that does not.
    const wrong = writes.filter(({ res }) => res.status !== 422);
    if (wrong.length === 0) return;
    const found = wrong.map(({ what, res }) => `${what} with a body that fails validation: found ${describe(res)}${isErrorAs2xx(res) ? ' with an error body' : ''}`).join('; ');
    const first = wrong[0]!.res;
    throw new CheckFailure(`${found}; expected 422`, '422', wrong.map(({ res }) => res.status).join(', '), first.exchangeIndex, wrong.some(({ res }) => isErrorAs2xx(res)) ? errorAs2xx : undefined);
  },
});

export const unsupportedAccept406 = defineCheck({
  id: 'ERR-unsupported-accept-406',
  title: 'An unsupported Accept answers 406',
  rule: 'A request whose Accept admits no format the API produces MUST get 406 (the conventions are stricter than RFC 9110 §12.4.1, which also allows ignoring Accept).',
  severity: 'must',
  needs: ['collection'],
  async run(ctx, { collection }) {
    const shared = await errorProbes.unsupportedAccept(ctx, collection);
    if (shared.status === 406) return;
    // The shared probe admits problem+json at a low weight (for the 406's body), which a JSON
    // writer that takes any +json type (ASP.NET Core's, Spring's) serves the listing as. The
    // rule's request admits nothing the API produces: the made-up type alone.
    const res = await ctx.http.send({ method: 'GET', path: collection.path, headers: { accept: unsupportedAccept } });
    expectStatus(res, 406, `GET with Accept: ${unsupportedAccept}`);
    ctx.note(`${describe(shared)} where Accept also admitted problem+json at q=0.1: a JSON writer that takes any +json type; the made-up type alone got 406`);
  },
});

export const unsupportedContentType415 = defineCheck({
  id: 'ERR-unsupported-content-type-415',
  title: 'An unsupported Content-Type answers 415',
  rule: 'A POST, PUT or PATCH body in a media type the API does not consume MUST get 415: judged with a made-up type (`application/x-restprobe-unsupported`), and with each type `collections[].notConsumed` names (forms and XML only there: many APIs consume forms too).',
  severity: 'must',
  needs: ['writable'],
  async run(ctx, { writable: collection }) {
    const targets: { method: string; path: string; body: Record<string, unknown> }[] = [{ method: 'POST', path: collection.path, body: collection.createBody }];
    if (collection.replaceBody || collection.patchBody) {
      const item = await refusedWritesItem(ctx, collection);
      if (collection.replaceBody) targets.push({ method: 'PUT', path: item.url, body: collection.replaceBody });
      if (collection.patchBody) targets.push({ method: 'PATCH', path: item.url, body: collection.patchBody });
    }
    const wrong: string[] = [];
    let focus: number | undefined;
    for (const { method, path, body } of targets) {
      for (const type of unconsumedTypes(collection)) {
        const res = method === 'POST' && type === unsupportedContentType ? await errorProbes.unsupportedContentType(ctx, collection) : await ctx.sendCreating(collection, { method, path, body: JSON.stringify(method === 'POST' ? { ...body, ...freshMark(ctx, collection) } : body), headers: { 'content-type': type } });
        if (res.status === 415) continue;
        wrong.push(`${method} with Content-Type: ${type} → ${res.status}`);
        focus ??= res.exchangeIndex;
      }
    }
    if (wrong.length > 0) throw new CheckFailure(`${wrong.join('; ')}, expected 415 for each`, '415', wrong.join('; '), focus);
  },
});

export const statusCodeChecks = [unknownId404, unknownPath404, malformedJson400, validation422, unsupportedAccept406, unsupportedContentType415];
