/**
 * `init --probe URL`: one GET of each inferred collection, to confirm what the document
 * said before the config is written: the status, and whether the body is the page the
 * document describes (its array member, and the cursor member a cursor page carries).
 * Read-only and a handful of requests; the credential is sent when its variable is set.
 */
import { RestprobeError } from '../errors.js';
import { HttpClient } from '../http/client.js';
import { isObject } from '../model/json.js';
import type { ProbeTarget } from './collection-config.js';

export interface ProbeFinding {
  readonly name: string;
  readonly path: string;
  readonly status?: number;
  /** The page has the shape the document describes. */
  readonly confirmed: boolean;
  /** One line: what came, and what was expected. */
  readonly verdict: string;
}

/** The credential to send, from the variable the config names. */
export interface ProbeCredential {
  readonly header: string;
  readonly env: string;
}

function judge(target: ProbeTarget, status: number, body: Buffer, credential: ProbeCredential | undefined, sent: boolean): Omit<ProbeFinding, 'name' | 'path' | 'status'> {
  if (status === 401 || status === 403) {
    const why = credential === undefined ? 'the document names no credential restprobe can send' : sent ? `check the credential in $${credential.env}` : `$${credential.env} is unset, so none was sent`;
    return { confirmed: false, verdict: `${status}: ${why}` };
  }
  if (status < 200 || status > 299) return { confirmed: false, verdict: `${status}, expected 200 with a page: check the path (and the base URL)` };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { confirmed: false, verdict: `${status}, but the body is not JSON` };
  }
  const envelope = target.listing.envelope;
  if (envelope === undefined) {
    return Array.isArray(json) ? { confirmed: true, verdict: `${status}, a JSON array as the document says` } : { confirmed: false, verdict: `${status}, but not the JSON array the document describes` };
  }
  if (!isObject(json) || !Array.isArray(json[envelope.arrayField])) return { confirmed: false, verdict: `${status}, but no "${envelope.arrayField}" array, which the document's page has` };
  const cursor = target.listing.pagination?.style === 'cursor' ? envelope.fields.find((f) => /next/i.test(f)) : undefined;
  if (cursor !== undefined && !(cursor in json)) return { confirmed: false, verdict: `${status}, a "${envelope.arrayField}" array but no "${cursor}", which the document's page has` };
  return { confirmed: true, verdict: `${status}, a page as the document says: "${envelope.arrayField}" (${(json[envelope.arrayField] as unknown[]).length} items)${cursor === undefined ? '' : ` and "${cursor}"`}` };
}

/**
 * GETs each collection at `baseUrl`.
 *
 * @throws RestprobeError `ERR_TARGET_UNREACHABLE` (or `ERR_TLS_UNTRUSTED`, `ERR_TIMEOUT`) when
 *   the first GET gets no answer: nothing is judged then.
 *
 * @example
 * ```ts
 * await probeCollections('http://127.0.0.1:8080', inference.probes, inference.credential, process.env);
 * // [{ name: 'projects', path: '/v2/projects', status: 200, confirmed: true, verdict: '200, a page as the document says: "data" (0 items) and "next_cursor"' }]
 * ```
 */
export async function probeCollections(baseUrl: string, targets: readonly ProbeTarget[], credential: ProbeCredential | undefined, env: NodeJS.ProcessEnv): Promise<ProbeFinding[]> {
  const client = new HttpClient({ timeoutMs: 10_000, maxBodyBytes: 5 << 20, connections: 2, maxRequests: targets.length });
  const value = credential === undefined ? undefined : env[credential.env];
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credential !== undefined && value !== undefined && value !== '') headers[credential.header.toLowerCase()] = credential.header.toLowerCase() === 'authorization' ? `Bearer ${value}` : value;
  const findings: ProbeFinding[] = [];
  try {
    for (const target of targets) {
      try {
        const res = await client.send({ method: 'GET', url: `${baseUrl}${target.path}`, headers });
        findings.push({ name: target.name, path: target.path, status: res.status, ...judge(target, res.status, res.body, credential, headers[credential?.header.toLowerCase() ?? ''] !== undefined) });
      } catch (err) {
        // The target is not there at all: say so once, rather than once per collection.
        if (findings.length === 0 && err instanceof RestprobeError) throw new RestprobeError(err.code, `--probe ${baseUrl}: ${err.message}`, [], { cause: err });
        findings.push({ name: target.name, path: target.path, confirmed: false, verdict: `no answer: ${(err as Error).message}` });
      }
    }
  } finally {
    await client.close();
  }
  return findings;
}
