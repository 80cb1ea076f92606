/**
 * A `oneOf` with an OpenAPI discriminator: the tag picks the branch. Subtypes that `allOf` a
 * common base, as springdoc (@JsonSubTypes) and drf-spectacular write them, overlap: a cat
 * matches the dog schema too, and plain `oneOf` refused every pet.
 */
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../src/document/json-schema.js';
import { OpenApiDocument } from '../src/model/openapi-document.js';

/** springdoc's shape: Pet is oneOf Cat, Dog with a mapping; each subtype is allOf the base and its own fields, none required. */
function petDocument(mapping: boolean, version: '3.0' | '3.1' = '3.0'): OpenApiDocument {
  const root = {
    openapi: version === '3.0' ? '3.0.1' : '3.1.0',
    info: { title: 'pets', version: '1' },
    paths: {},
    components: {
      schemas: {
        PetBase: { type: 'object', required: ['petType', 'name'], properties: { petType: { type: 'string' }, name: { type: 'string' } } },
        Cat: { allOf: [{ $ref: '#/components/schemas/PetBase' }, { type: 'object', properties: { huntingSkill: { type: 'string' } } }] },
        Dog: { allOf: [{ $ref: '#/components/schemas/PetBase' }, { type: 'object', properties: { packSize: { type: 'integer' } } }] },
        Pet: {
          oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
          discriminator: { propertyName: 'petType', ...(mapping && { mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } }) },
        },
        Inline: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { type: 'object', properties: { petType: { const: 'fish' } } }], discriminator: { propertyName: 'petType' } },
      },
    },
  };
  return new OpenApiDocument(root, version, 'pets.json');
}

const check = (doc: OpenApiDocument, value: unknown, schema = 'Pet') => new SchemaValidator(doc, 'response').validate(doc.at(`/components/schemas/${schema}`)!, value);

describe('a oneOf with a discriminator', () => {
  it('takes a value that overlapping branches both match, by its tag (mapping, by reference or name)', () => {
    const doc = petDocument(true);
    expect(check(doc, { petType: 'cat', name: 'Tom', huntingSkill: 'lazy' })).toEqual({ ok: true });
    expect(check(doc, { petType: 'dog', name: 'Rex', packSize: 3 })).toEqual({ ok: true });
    // The tag picks the branch: a dog's huntingSkill is no field of Dog's, so any type passes there.
    expect(check(doc, { petType: 'dog', name: 'Rex', huntingSkill: 5 })).toEqual({ ok: true });
  });

  it('takes the schema names as tags without a mapping, in 3.1 too', () => {
    expect(check(petDocument(false), { petType: 'Cat', name: 'Tom' })).toEqual({ ok: true });
    expect(check(petDocument(false, '3.1'), { petType: 'Dog', name: 'Rex', packSize: 2 })).toEqual({ ok: true });
  });

  it('still refuses what the named branch refuses, a tag that names no branch and a missing tag', () => {
    const doc = petDocument(true);
    expect(check(doc, { petType: 'cat', name: 'Tom', huntingSkill: 7 })).toEqual({ ok: false, problem: '/huntingSkill must be string' });
    expect(check(doc, { petType: 'dog', name: 'Rex', packSize: 'many' })).toEqual({ ok: false, problem: '/packSize must be integer' });
    expect(check(doc, { petType: 'cat' })).toEqual({ ok: false, problem: "(the value) must have required property 'name'" });
    expect(check(doc, { petType: 'bird', name: 'Tweety' })).toEqual({ ok: false, problem: '/petType must be equal to one of the allowed values (["cat","Cat","dog","Dog"])' });
    expect(check(doc, { name: 'Tom' })).toEqual({ ok: false, problem: "(the value) must have required property 'petType'" });
    // Without a mapping a tag is a schema's name, case and all.
    expect(check(petDocument(false), { petType: 'cat', name: 'Tom' }).ok).toBe(false);
  });

  it('leaves a value whose tag names no branch to match any branch when a branch is inline', () => {
    const doc = petDocument(false);
    expect(check(doc, { petType: 'fish' }, 'Inline')).toEqual({ ok: true });
    expect(check(doc, { petType: 'Cat', name: 'Tom', huntingSkill: 1 }, 'Inline').ok).toBe(false);
  });
});
