/**
 * The OpenAPI document a run holds its answers to (`openapi` in the config, or `--openapi`),
 * read once before the run: only when a selected check needs it, so a run without the DOC
 * section never reads (or downloads) it. A URL is downloaded through the run's own client
 * (its CA, proxy, timeout and body cap), without credentials.
 */
import type { Check } from '../model/check.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import type { TargetProfile } from '../model/profile.js';
import type { HttpClient } from '../http/client.js';
import { loadOpenApi } from '../document/load.js';

/**
 * @throws RestprobeError `ERR_OPENAPI_INVALID` when the document cannot be read or is no OpenAPI 3.0 or 3.1 document.
 *
 * @example
 * ```ts
 * const openapi = await documentFor(profile, selected, client);
 * await runChecks({ profile, checks: selected, seed, inputs: { ...(openapi && { openapi }) } });
 * ```
 */
export async function documentFor(profile: TargetProfile, checks: readonly Check[], client: HttpClient): Promise<OpenApiDocument | undefined> {
  if (profile.openapi === undefined || !checks.some((c) => (c.needs as readonly string[]).includes('openapi'))) return undefined;
  return loadOpenApi(profile.openapi, async (url) => {
    const res = await client.send({ method: 'GET', url, headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}, expected 200`);
    return res.body.toString('utf8');
  });
}
