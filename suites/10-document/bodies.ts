/**
 * The create operation's request schema, held to both ways: a body it accepts is accepted,
 * and a body that breaks exactly one constraint it states is refused naming the field. The
 * bodies are fast-check arbitraries drawn from the schema (src/check-kit/schema-inputs.ts):
 * targeted cases first, then a few random ones, the failing one shrunk and replayable with
 * `--seed`. Each case is one POST, so the random ones are few.
 */
import type { Arbitrary } from 'fast-check';
import { CheckFailure, defineCheck } from '../../src/model/check.js';
import type { CheckContext, HttpResponse } from '../../src/model/context.js';
import type { WritableCollection } from '../../src/model/needs.js';
import { brief, describe, expectStatus } from '../../src/check-kit/expect.js';
import { expectFieldErrors } from '../../src/check-kit/problem.js';
import { checkProperty } from '../../src/check-kit/property.js';
import { broken, createInputs, documentsStatus, showBroken, type Body } from '../../src/check-kit/schema-inputs.js';

/** Random cases after the targeted ones, unless `properties.numRuns` asks for another number: each is a POST, and a created item's DELETE. */
const randomCases = 1;
/** Smaller bodies tried when one fails, at most: each is a POST. */
const maxShrinks = 40;

interface Cases<T> {
  readonly arbitrary: Arbitrary<T>;
  /** The targeted cases, tried first. */
  readonly examples: readonly T[];
  readonly show: (input: T) => string;
  readonly body: (input: T) => Body;
}

/**
 * POSTs each case's body (sendCreating gives it a fresh mark, where the collection has a mark field) and judges
 * the answer; what a 2xx created is tracked, and deleted before the next case is sent.
 */
async function postEach<T>(ctx: CheckContext, collection: WritableCollection, cases: Cases<T>, judge: (res: HttpResponse, input: T) => void): Promise<void> {
  const { arbitrary, examples, show, body } = cases;
  await checkProperty(ctx, {
    arbitrary,
    examples,
    randomCases,
    maxShrinks,
    show,
    predicate: async (input) => {
      try {
        judge(await ctx.sendCreating(collection, { method: 'POST', path: collection.path, json: body(input) }), input);
      } finally {
        await ctx.cleanup();
      }
    },
  });
}

/** The fields a refusal's `errors` names, for a message: ` (errors name ["role"])`. */
function namedFields(res: HttpResponse): string {
  const errors = (res.json as Record<string, unknown> | undefined)?.['errors'];
  const fields = Array.isArray(errors) ? errors.map((e) => (e as Record<string, unknown> | null)?.['field']).filter((f) => typeof f === 'string') : [];
  return fields.length === 0 ? '' : ` (errors name ${brief(fields)})`;
}

const isSuccess = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300;

export const validBodiesAccepted = defineCheck({
  id: 'DOC-valid-bodies-accepted',
  title: 'Bodies the create schema accepts are accepted',
  rule: "A create whose body the operation's documented request schema accepts MUST be answered 2xx, or 409 where the operation documents a conflict (a name taken), and at least one such body MUST be created.",
  severity: 'must',
  needs: ['openapi', 'writable'],
  async run(ctx, { openapi, writable }) {
    const { operation, inputs } = createInputs(ctx, openapi, writable);
    const cases = { arbitrary: inputs.valid(), examples: inputs.edgeBodies(), show: (body: Body) => brief(body, 300), body: (body: Body) => body };
    const answered = { created: 0, refused: 0 };
    await postEach(ctx, writable, cases, (res) => {
      // A documented conflict (409: a name taken) is the operation's to give; any other 4xx refuses a body the schema accepts.
      const documentedRefusal = res.status === 409 && documentsStatus(operation, res.status);
      if (isSuccess(res) || documentedRefusal) {
        answered[documentedRefusal ? 'refused' : 'created']++;
        return;
      }
      const expected = '2xx, or a 409 the operation documents';
      throw new CheckFailure(`${describe(res)}${namedFields(res)} to a body the documented schema accepts, expected ${expected}`, expected, String(res.status), res.exchangeIndex);
    });
    ctx.note(`${answered.created} valid bodies created, ${answered.refused} refused with a conflict the operation documents`);
    // Conflicts alone prove nothing about acceptance.
    if (answered.created === 0) throw new CheckFailure(`every valid body got 409 (${answered.refused} of them), none was created: expected bodies the documented schema accepts to be created`, 'at least one 2xx', `${answered.refused} × 409`);
  },
});

export const invalidBodiesRefused = defineCheck({
  id: 'DOC-invalid-bodies-refused',
  title: 'Bodies that break one documented constraint are refused, naming the field',
  rule: "A create whose body breaks exactly one constraint the operation's documented request schema states (a type, a required property, an enum, a bound, a pattern, a format) MUST be refused with 400 or 422, its `errors[].field` naming the property.",
  severity: 'must',
  needs: ['openapi', 'writable'],
  async run(ctx, { openapi, writable }) {
    const { inputs } = createInputs(ctx, openapi, writable);
    const targeted = inputs.targetedBreaks();
    ctx.note(`targeted: ${targeted.map((c) => `${c.broken.property} (${c.broken.constraint})`).join(', ')}; then random breaks of ${inputs.breaks().length} constraints`);
    await postEach(ctx, writable, { arbitrary: inputs.invalid(), examples: targeted, show: showBroken, body: broken }, (res, input) => {
      const what = `a body where ${input.broken.property} breaks ${input.broken.constraint}`;
      if (isSuccess(res)) throw new CheckFailure(`${describe(res)} to ${what}: it was accepted, expected 400 or 422 naming ${input.broken.property}`, '400 or 422', String(res.status), res.exchangeIndex);
      expectStatus(res, [400, 422], what);
      expectFieldErrors(res, [input.broken.property], what);
    });
  },
});
