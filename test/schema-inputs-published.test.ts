/**
 * Schema-driven inputs on real, published OpenAPI documents that ship in npm packages (dev
 * dependencies, pinned; all MIT, as test/openapi-published.test.ts reads them): for every POST
 * with a JSON object body, every body drawn from its schema validates against it, and every
 * broken one fails it by its one broken constraint, the rest of the body valid. Apart from
 * test/schema-inputs.test.ts: reading these documents is heavy, synchronous work that would
 * stall the in-process servers there.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../src/document/json-schema.js';
import { loadOpenApi } from '../src/document/load.js';
import { jsonMedia, pathItems } from '../src/document/operations.js';
import { BodyInputs, broken, constraintKinds } from '../src/check-kit/schema-inputs.js';
import { repoRoot } from './support/target.js';

/** The documents, and the kinds of constraint their POST bodies let restprobe break. */
const published = [
  { name: '@figma/rest-api-spec', file: 'openapi/openapi.yaml', kinds: ['type', 'required', 'enum', 'bounds'] },
  { name: 'shipengine-openapi', file: 'openapi.yaml', kinds: constraintKinds },
  { name: '@scalar/galaxy', file: 'dist/latest.yaml', kinds: ['type', 'required', 'format'] },
] as const;

describe.concurrent('on published documents, every POST with a JSON object body', () => {
  it.each(published.map((p) => [p.name, p] as const))('%s: valid bodies validate, each broken body breaks only its constraint', async (_name, { name, file, kinds: broke }) => {
    const doc = await loadOpenApi(join(repoRoot, 'node_modules', ...name.split('/'), file));
    const requests = new SchemaValidator(doc, 'request');
    const kinds = new Set<string>();
    let operations = 0;
    for (const op of pathItems(doc).flatMap((p) => p.operations).filter((o) => o.method === 'POST')) {
      const schema = jsonMedia(op.requestBody?.content)?.schema;
      const inputs = schema === undefined ? undefined : BodyInputs.of(doc, schema, { leaveOut: [] });
      if (schema === undefined || inputs === undefined || typeof inputs === 'string' || inputs.breaks().length === 0) continue;
      operations++;
      const where = `POST ${op.path}`;
      for (const body of [...inputs.edgeBodies(), ...fc.sample(inputs.valid(), { seed: 1, numRuns: 10 })]) expect(requests.validate(schema, body), `${where} ${JSON.stringify(body)}`).toEqual({ ok: true });
      for (const c of [...inputs.targetedBreaks(), ...fc.sample(inputs.invalid(), { seed: 1, numRuns: 10 })]) {
        kinds.add(c.broken.kind);
        expect(requests.validate(schema, c.base).ok, `${where} base`).toBe(true);
        expect(requests.validate(schema, broken(c)).ok, `${where} ${c.broken.property} ${c.broken.constraint}`).toBe(false);
      }
    }
    expect(operations).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(broke));
  });
});
