/**
 * Reading an OpenAPI document: a JSON document whose references all point into itself is read
 * as it is, without the multi-file resolver; it must come out as the resolver would give it,
 * and every other document (or a reference that points nowhere) still goes to the resolver.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { loadOpenApi } from '../src/document/load.js';
import { startTarget } from './support/target.js';
import { refusedPort } from './support/refused-port.js';

async function written(doc: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'restprobe-doc-')), 'openapi.json');
  await writeFile(path, JSON.stringify(doc));
  return path;
}

describe('a self-contained JSON document', () => {
  it("is read as the resolver would bundle it (the reference server's document, a file and a URL)", async () => {
    const target = await startTarget();
    try {
      const url = `${target.server.url}/openapi.json`;
      const path = await written(await (await fetch(url)).json());
      const bundled = await $RefParser.bundle(path);
      expect((await loadOpenApi(path)).root).toEqual(bundled);
      expect((await loadOpenApi(url, async (u) => (await fetch(u)).text())).root).toEqual(bundled);
    } finally {
      await target.close();
    }
  });

  it('with a schema that has an $id (3.1 resolves its references against it): read by the resolver, as before', async () => {
    const thing = { $id: 'https://example.test/thing.json', type: 'object', properties: { o: { $ref: '#/components/schemas/Other' } } };
    const path = await written({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { Thing: thing, Other: { type: 'string' } } } });
    const resolver = await $RefParser.bundle(path).then((root) => ({ root }), (err: Error) => ({ failed: err.name }));
    const ours = await loadOpenApi(path).then((doc) => ({ root: doc.root }), (err: Error) => ({ failed: (err.cause as Error | undefined)?.name }));
    expect(ours).toEqual(resolver);
  });

  it('with a reference that points nowhere in it: the resolver says which', async () => {
    const path = await written({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gone' } } } } } } } } });
    await expect(loadOpenApi(path)).rejects.toThrow(/a \$ref points nowhere: .* has no #\/components\/schemas\/Gone/);
  });
});

describe('a document at a URL that cannot be read', () => {
  it('says why (refused, a status), with the run\'s own download or without one (restprobe init)', async () => {
    const refused = `http://127.0.0.1:${refusedPort}/openapi.json`;
    for (const download of [undefined, async (u: string) => { throw new Error(`GET ${u}: cannot connect (ECONNREFUSED)`); }]) {
      await expect(loadOpenApi(refused, download)).rejects.toThrow(`OpenAPI document ${refused}: cannot be read: GET ${refused}: cannot connect (ECONNREFUSED)`);
    }
    const target = await startTarget();
    try {
      const missing = `${target.server.url}/no-such-openapi.json`;
      await expect(loadOpenApi(missing)).rejects.toThrow(`OpenAPI document ${missing}: cannot be read: GET ${missing} answered 404`);
      expect((await loadOpenApi(`${target.server.url}/openapi.json`)).version).toMatch(/^3\./);
    } finally {
      await target.close();
    }
  });
});
