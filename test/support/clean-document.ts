/**
 * Test support: the clean reference server's own OpenAPI document, as `--openapi` would
 * give it to a run: the DOC checks hold every answer of a run (a faulty server's too) to it.
 */
import { loadOpenApi } from '../../src/document/load.js';
import type { OpenApiDocument } from '../../src/model/openapi-document.js';
import { startTarget } from './target.js';

let loaded: Promise<OpenApiDocument> | undefined;

/** Read once per test file. */
export function cleanDocument(): Promise<OpenApiDocument> {
  loaded ??= (async () => {
    const target = await startTarget();
    try {
      return await loadOpenApi(`${target.server.url}/openapi.json`);
    } finally {
      await target.close();
    }
  })();
  return loaded;
}
