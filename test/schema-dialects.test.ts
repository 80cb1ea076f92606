/**
 * Schemas as the popular generators write them, read as their authors mean: patterns written
 * for Java's and .NET's engines (springdoc copies `@Pattern`, Swashbuckle `[RegularExpression]`),
 * decimal steps (`multipleOf: 0.01` from FastAPI and drf-spectacular), and Swashbuckle's
 * subtypes, allOf a base it closes (`additionalProperties: false` on every object schema).
 */
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../src/document/json-schema.js';
import { OpenApiDocument } from '../src/model/openapi-document.js';

function documentWith(schemas: Record<string, unknown>): OpenApiDocument {
  return new OpenApiDocument({ openapi: '3.0.1', info: { title: 't', version: '1' }, paths: {}, components: { schemas } }, '3.0', 't.json');
}

const validate = (schemas: Record<string, unknown>, name: string, value: unknown) => {
  const doc = documentWith(schemas);
  return new SchemaValidator(doc, 'response').validate(doc.at(`/components/schemas/${name}`)!, value);
};

describe('patterns written for other engines', () => {
  const person = { Person: { type: 'object', properties: { name: { type: 'string', pattern: "^[\\p{L} .'-]+$" }, code: { type: 'string', pattern: '^[A-Z\\-]+$' }, ci: { type: 'string', pattern: '(?i)^[a-z]+$' } } } };

  it('reads \\p{L} as a Unicode property, as JSON Schema 2020-12 §6.4 asks (springdoc copies @Pattern as it is)', () => {
    expect(validate(person, 'Person', { name: "Zoë O'Brien" })).toEqual({ ok: true });
    expect(validate(person, 'Person', { name: 'R2-D2' })).toMatchObject({ ok: false, problem: expect.stringMatching(/^\/name must match pattern/) });
  });

  it('reads a pattern the u flag refuses (an escaped hyphen outside a class) without it', () => {
    expect(validate(person, 'Person', { code: 'AB-C' })).toEqual({ ok: true });
    expect(validate(person, 'Person', { code: 'ab' })).toMatchObject({ ok: false });
  });

  it('does not judge a pattern no JavaScript engine compiles ((?i), Java and Python only): the rest of the schema still is', () => {
    expect(validate(person, 'Person', { ci: 'Hello' })).toEqual({ ok: true });
    expect(validate(person, 'Person', { ci: 5 })).toMatchObject({ ok: false, problem: expect.stringMatching(/^\/ci must be string/) });
  });
});

describe('decimal steps', () => {
  it('takes 19.99 as a multiple of 0.01, which it is (1998.9999… in floats), and refuses 19.995', () => {
    const price = { Price: { type: 'number', multipleOf: 0.01 } };
    expect(validate(price, 'Price', 19.99)).toEqual({ ok: true });
    expect(validate(price, 'Price', 0.07)).toEqual({ ok: true });
    expect(validate(price, 'Price', 19.995)).toMatchObject({ ok: false, problem: expect.stringMatching(/multiple of 0\.01/) });
  });
});

describe("Swashbuckle's subtypes (UseAllOfForInheritance), allOf a base closed with additionalProperties: false", () => {
  const shapes = {
    Shape: { type: 'object', properties: { kind: { type: 'string' }, name: { type: 'string' } }, additionalProperties: false },
    Circle: { type: 'object', allOf: [{ $ref: '#/components/schemas/Shape' }], properties: { radius: { type: 'number' } }, additionalProperties: false },
    Ring: { type: 'object', allOf: [{ $ref: '#/components/schemas/Circle' }], properties: { inner: { type: 'number' } }, additionalProperties: false },
  };

  it("takes a subtype's own properties beside the base's", () => {
    expect(validate(shapes, 'Circle', { kind: 'circle', name: 'c', radius: 2 })).toEqual({ ok: true });
    expect(validate(shapes, 'Ring', { kind: 'ring', name: 'r', radius: 2, inner: 1 })).toEqual({ ok: true });
  });

  it('still refuses what neither declares, and the base alone stays closed', () => {
    expect(validate(shapes, 'Circle', { kind: 'circle', radius: 2, colour: 'red' })).toMatchObject({ ok: false });
    expect(validate(shapes, 'Shape', { kind: 'circle', radius: 2 })).toMatchObject({ ok: false });
    expect(validate(shapes, 'Circle', { kind: 'circle', radius: 'big' })).toMatchObject({ ok: false, problem: expect.stringMatching(/radius must be number/) });
  });
});
