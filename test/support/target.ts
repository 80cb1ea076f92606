/**
 * Test support: a reference server on port 0 with a profile and a client pointed at it,
 * so self-tests run checks directly through the engine (no nested vitest).
 */
import { join } from 'node:path';
import { loadProfile } from '../../src/config/load.js';
import { HttpClient } from '../../src/http/client.js';
import type { CollectionProfile, TargetProfile } from '../../src/model/profile.js';
import { defaultProbeRateLimit, faultCatalogue, startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../reference-server/src/index.js';
import { startRewritingProxy, type Rewrites, type RewritingProxy } from './rewriting-proxy.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const referenceConfig = join(repoRoot, 'fixtures', 'reference.config.json');

export interface Target {
  readonly server: ReferenceServer;
  readonly profile: TargetProfile;
  readonly client: HttpClient;
  close(): Promise<void>;
}

/**
 * The probe keys' quota in tests: `serve`'s default and the reference config's (5 in a
 * quarter of a second), so the rate-limit checks wait milliseconds (a token every 50 ms), not
 * seconds, and a burst on a loaded CI machine (4 test workers on 2 cores) still outruns the refill.
 */
export const testProbeRateLimit = defaultProbeRateLimit;

/** `profile` with `change` made to the projects collection only, the others as they are. */
export function adjustProjects(profile: TargetProfile, change: (c: CollectionProfile) => Partial<CollectionProfile>): TargetProfile {
  return { ...profile, collections: profile.collections.map((c) => (c.name === 'projects' ? { ...c, ...change(c) } : c)) };
}

/**
 * The projects listing's page-size cap on {@link startTarget}'s servers, declared in their
 * profile (`collections[].pagination.maxLimit`): the cap checks fill cap + 1 items, so a
 * smaller cap than `serve`'s 100 makes every run of the catalogue (each fault matrix cell)
 * about 160 requests cheaper and proves the same rules. Not below the default page size (20):
 * a check that reads one default page (END-safe-methods-no-change's marked listing) sees as
 * many items as on `serve`.
 */
export const testProjectsMaxLimit = 20;

/** The reference server with two nodes over one store, so cross-node checks run; with `tls`, over HTTPS, its CA trusted and its plain-HTTP URL configured. */
export async function startTarget(faults: readonly string[] = [], options: Pick<ReferenceServerOptions, 'rateLimit' | 'probeRateLimit' | 'tls'> = {}): Promise<Target> {
  const server = await startReferenceServer({ port: 0, faults, nodes: 2, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short', projectsMaxLimit: testProjectsMaxLimit, ...options });
  return targetAt(server, server.url, server.urls.slice(1), testProjectsMaxLimit);
}

/** Faults that only show over HTTPS: the fault matrix starts their targets with `tls`. */
export const tlsFaults: ReadonlySet<string> = new Set(faultCatalogue.filter((f) => f.overTls === true).map((f) => f.name));

/** A variant of the reference server: the server (with `faults`) behind a proxy that applies `rewrites`. */
export interface Variant extends Target {
  readonly proxy: RewritingProxy;
}

/**
 * The reference server behind a rewriting proxy: a target that differs from the clean
 * server in what `rewrites` change. The profile points at the proxy (one node).
 */
export async function startVariant(rewrites: Rewrites, faults: readonly string[] = [], options: Pick<ReferenceServerOptions, 'versioning' | 'seedProjects'> = {}): Promise<Variant> {
  // The server's own cap (100): a variant's rewrites may ask it for pages that large.
  const server = await startReferenceServer({ port: 0, faults, probeRateLimit: testProbeRateLimit, webhookSchedule: 'short', ...options });
  const proxy = await startRewritingProxy(server.url, rewrites);
  const target = await targetAt(server, proxy.url, []);
  return {
    ...target,
    proxy,
    async close() {
      await target.close();
      await proxy.close();
    },
  };
}

/** A profile and client for `server` at `baseUrl`; `projectsMaxLimit` declares the cap the server was started with (the config declares 100). */
export async function targetAt(server: ReferenceServer, baseUrl: string, nodes: readonly string[], projectsMaxLimit?: number): Promise<Target> {
  const config = await loadProfile({ configPath: referenceConfig, baseUrl, env: { ...server.secrets }, ...(server.caPath !== undefined && { ca: server.caPath }) });
  const loaded = projectsMaxLimit === undefined ? config : { ...config, collections: config.collections.map((c) => (c.name === 'projects' ? { ...c, pagination: { ...c.pagination, maxLimit: projectsMaxLimit } } : c)) };
  // The config declares `serve`'s quota for the probe keys, which the tests' servers run too (kept explicit: a test may start its own).
  const profile = { ...loaded, nodes, ...(loaded.rateLimit && { rateLimit: { ...loaded.rateLimit, ...testProbeRateLimit } }), ...(server.plainUrl !== undefined && { plainHttpUrl: server.plainUrl }) };
  const client = new HttpClient({ timeoutMs: 5_000, maxBodyBytes: profile.http.maxBodyBytes, connections: 4, maxRequests: 50_000, ...(profile.http.ca !== undefined && { ca: profile.http.ca }) });
  return {
    server,
    profile,
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** Checks whose honest verdict on the clean server is not `pass`, with the reason. */
export const cleanServerExceptions: Record<string, { status: string; why: string }> = {
  'AUT-hsts': { status: 'skip', why: 'plain HTTP on a loopback address: HSTS is judged over HTTPS (test/auth-variants.test.ts runs it with tls)' },
  'AUT-https-redirect': { status: 'skip', why: 'no plain-HTTP URL without tls (test/auth-variants.test.ts runs it with tls)' },
  'END-offset-shift-under-inserts': { status: 'warn', why: 'the conventions call offset pages unstable: every offset-paginated collection shifts' },
};

/** Check instances that do not pass on the clean reference server, by result name, and why (on top of {@link cleanServerExceptions}). */
export const cleanServerInstanceExceptions: Record<string, { status: string; why: string }> = {
  'LIM-default-page-bounded [events]': { status: 'skip', why: 'events is empty and takes no DELETE, so restprobe may not fill it: no default page to judge' },
};
