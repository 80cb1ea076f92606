/**
 * How the API names its version (conventions §9), from the document: a `/v2` segment at
 * the end of the server URL or at the start of every collection path (the URL scheme), else
 * a version header or query parameter on the list operations.
 */
import type { RawConfig } from '../config/raw-config.js';
import type { OpenApiDocument } from '../model/openapi-document.js';
import type { Operation } from '../document/operations.js';
import { flatten } from '../document/schema.js';
import type { ApiTarget } from '../document/servers.js';

export interface VersionInference {
  readonly version?: NonNullable<RawConfig['version']>;
  readonly notes: readonly string[];
  readonly fillIns: readonly string[];
}

const versionHeader = /^(x-)?api-?version$|^accept-version$|^version$/i;
const versionQuery = /^(v|version|api-?version)$/i;

/** The value a version parameter takes by default (its default, else its first enum member or example). */
function currentOf(doc: OpenApiDocument, op: Operation, name: string): string | undefined {
  const p = op.parameters.find((x) => x.name === name);
  if (p?.schema === undefined) return undefined;
  const flat = flatten(doc, p.schema);
  const value = flat.default ?? flat.enum?.[0] ?? flat.examples[0];
  return value === undefined ? undefined : String(value);
}

/** Versions the servers call deprecated (a `/v1` server described as "deprecated"). */
function deprecatedServers(target: ApiTarget): string[] {
  return target.servers.flatMap((s) => {
    const m = /\/(v\d+)\/?$/i.exec(s.absolute ?? s.url);
    return m !== null && /deprecat/i.test(s.description ?? '') ? [m[1]!] : [];
  });
}

/**
 * @param target the servers (one described as deprecated names a deprecated version).
 * @param paths the collection paths as configured (prefix included).
 * @param lists the collections' list operations.
 *
 * @example
 * ```ts
 * inferVersion(doc, targetOf(doc), ['/v2/things'], lists).version; // { scheme: 'url', current: 'v2' }
 * ```
 */
export function inferVersion(doc: OpenApiDocument, target: ApiTarget, paths: readonly string[], lists: readonly Operation[]): VersionInference {
  const deprecated = deprecatedServers(target);
  const fillIns = [
    ...(deprecated.length === 0 ? ['version.deprecated: the versions still served but deprecated, for the VER- lifecycle checks'] : []),
    'version.removed: the versions past their sunset (they must answer 404 or 410)',
  ];
  const firsts = new Set(paths.map((p) => /^\/(v\d+)(?=\/|$)/i.exec(p)?.[1]));
  if (paths.length > 0 && firsts.size === 1 && !firsts.has(undefined)) {
    const current = [...firsts][0]!;
    const older = deprecated.filter((v) => v !== current);
    return { version: { scheme: 'url', current, ...(older.length > 0 && { deprecated: older }) }, notes: [], fillIns };
  }
  const named = [...firsts].filter((v) => v !== undefined);
  if (named.length > 1) {
    return { notes: [`collection paths carry several versions (${named.join(', ')}): not one version scheme for the whole API, so version is left out`], fillIns: [] };
  }
  for (const [where, pattern] of [['header', versionHeader], ['query', versionQuery]] as const) {
    const op = lists.find((o) => o.parameters.some((p) => p.in === where && pattern.test(p.name)));
    const param = op?.parameters.find((p) => p.in === where && pattern.test(p.name));
    if (op === undefined || param === undefined) continue;
    const current = currentOf(doc, op, param.name);
    if (current !== undefined && !/^v?\d{1,6}$/.test(current)) return { notes: [`the ${where} ${param.name} names the version, but its value ${current} is no major version number (2, v2), which the VER- checks need`], fillIns: [] };
    if (current === undefined) return { notes: [`the ${where} ${param.name} names the version, but the document gives no current value`], fillIns: [`version: { scheme: ${where}, ${where === 'header' ? `header: ${param.name}` : `queryParam: ${param.name}`}, current: … }: the current version`] };
    const version = where === 'header' ? { scheme: 'header' as const, header: param.name, current } : { scheme: 'query' as const, queryParam: param.name, current };
    return { version, notes: where === 'query' ? ['the version is chosen by a query parameter, which the conventions discourage (§9.2): VER-no-query-scheme will say so'] : [], fillIns };
  }
  return { notes: [], fillIns: ['version: how the API names its version ({ scheme: url, current: v1 }), for the VER- checks; the document shows none'] };
}
