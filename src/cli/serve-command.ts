/**
 * `restprobe serve`: the bundled reference server. It prints shell lines (comments, and
 * one `export` per secret) so a second shell can paste them and run against it.
 */
import { faultCatalogue, jwtAlgorithms, maxNodes, versioningSchemes, type Versioning, maxSeedProjects, startReferenceServer, webhookScheduleNames, webhookSchedules, type WebhookScheduleName } from '../../reference-server/src/index.js';
import { RestprobeError } from '../errors.js';
import { exportLine } from './export-lines.js';
import { describeRateLimits, rateLimitOptions, type RateLimitFlags } from './serve-rate-limits.js';

export interface ServeOptions extends RateLimitFlags {
  readonly port: string;
  readonly fault: string[];
  readonly listFaults: boolean;
  readonly json: boolean;
  /** How many nodes share one store (1 to 8); default 1. */
  readonly nodes?: string;
  /** Projects to pre-fill (label "seed"), for big walks; default 0. */
  readonly seedProjects?: string;
  /** Integer ids that a delete frees again. */
  readonly reuseIds?: boolean;
  /** HTTPS with a CA generated at start, HSTS, and a plain-HTTP listener that redirects. */
  readonly tls?: boolean;
  /** A load balancer in front of the nodes: each request to the next node in turn. */
  readonly balancer?: boolean;
  /** How webhook deliveries are retried: short (default) or standard. */
  readonly webhookSchedule?: string;
  /** How webhook deliveries are signed: standard (default) or github. */
  readonly webhookScheme?: string;
  /** How clients name the API version: `url` (default), `header` (Accept), `x-api-version` or `query`. */
  readonly versioning?: string;
  /** How the OAuth server signs access tokens: `RS256` (default) or `HS256`. */
  readonly jwtAlg?: string;
}

export function renderFaultList(json: boolean): string {
  if (json) return JSON.stringify(faultCatalogue.map(({ name, description, detects }) => ({ name, description, detects })), null, 2);
  const width = Math.max(...faultCatalogue.map((f) => f.name.length));
  return faultCatalogue.map((f) => `${f.name.padEnd(width)}  ${f.description}  [${f.detects.join(', ')}]`).join('\n');
}

/** How each versioning scheme names the versions, for the banner. */
const versionsLine: Record<Versioning, string> = {
  url: '/v2 current, /v1 deprecated, /v0 removed',
  header: 'unversioned paths; Accept: application/vnd.restprobe+json; version=2 (current), 1 (deprecated), 0 (removed)',
  'x-api-version': 'unversioned paths; X-API-Version: 2 (current), 1 (deprecated), 0 (removed); Vary: Accept, X-API-Version',
  query: 'unversioned paths; ?v=2 (current), ?v=1 (deprecated), ?v=0 (removed): a scheme the conventions discourage (VER-no-query-scheme warns)',
};

/** Starts the server and resolves when it has stopped (SIGINT or SIGTERM). */
export async function serveCommand(opts: ServeOptions, out: NodeJS.WriteStream = process.stdout): Promise<void> {
  if (opts.listFaults) {
    out.write(`${renderFaultList(opts.json)}\n`);
    return;
  }
  const port = Number(opts.port);
  if (!/^\d+$/.test(opts.port) || port > 65535) throw new RestprobeError('ERR_USAGE', `--port: "${opts.port}" is not a port number (0-65535)`);
  const known = new Set(faultCatalogue.map((f) => f.name));
  const unknown = opts.fault.filter((f) => !known.has(f));
  if (unknown.length > 0) {
    throw new RestprobeError('ERR_USAGE', `unknown fault ${unknown.map((u) => `"${u}"`).join(', ')}; list them with: restprobe serve --list-faults`);
  }
  const nodesText = opts.nodes ?? '1';
  const nodes = Number(nodesText);
  if (!/^\d+$/.test(nodesText) || nodes < 1 || nodes > maxNodes) {
    throw new RestprobeError('ERR_USAGE', `--nodes: "${nodesText}" is not a node count (1-${maxNodes})`);
  }
  // With --tls, the plain-HTTP listener takes the port after the nodes', and a balancer the next.
  const lastPort = port + nodes - (opts.tls === true ? 0 : 1) + (opts.balancer === true ? 1 : 0);
  if (port !== 0 && lastPort > 65535) {
    throw new RestprobeError('ERR_USAGE', `--port ${port} --nodes ${nodes}${opts.tls === true ? ' --tls' : ''}${opts.balancer === true ? ' --balancer' : ''}: the server would need ports up to ${lastPort} (max 65535)`);
  }
  const seedText = opts.seedProjects ?? '0';
  const seedProjects = Number(seedText);
  if (!/^\d+$/.test(seedText) || seedProjects > maxSeedProjects) {
    throw new RestprobeError('ERR_USAGE', `--seed-projects: "${seedText}" is not a count (0-${maxSeedProjects})`);
  }
  const limits = rateLimitOptions(opts);
  const schedule = (opts.webhookSchedule ?? 'short') as WebhookScheduleName;
  if (!webhookScheduleNames.includes(schedule)) throw new RestprobeError('ERR_USAGE', `--webhook-schedule: "${schedule}" is not one of ${webhookScheduleNames.join(', ')}`);
  const webhookScheme = opts.webhookScheme ?? 'standard';
  if (webhookScheme !== 'standard' && webhookScheme !== 'github') throw new RestprobeError('ERR_USAGE', `--webhook-scheme: "${webhookScheme}" is not standard or github`);
  const versioning = (opts.versioning ?? 'url') as Versioning;
  if (!versioningSchemes.includes(versioning)) throw new RestprobeError('ERR_USAGE', `--versioning: "${versioning}" is not one of ${versioningSchemes.join(', ')}`);
  const jwtAlg = jwtAlgorithms.find((a) => a === (opts.jwtAlg ?? 'RS256'));
  if (jwtAlg === undefined) throw new RestprobeError('ERR_USAGE', `--jwt-alg: "${opts.jwtAlg ?? ''}" is not one of ${jwtAlgorithms.join(', ')}`);
  let server;
  try {
    server = await startReferenceServer({ port, faults: opts.fault, nodes, seedProjects, ...limits, ...(opts.reuseIds === true && { reuseIds: true }), ...(opts.tls === true && { tls: true }), ...(opts.balancer === true && { balancer: true }), webhookSchedule: schedule, webhookScheme, versioning, jwtAlg });
  } catch (err) {
    const where = port !== 0 && lastPort > port ? `${port}-${lastPort}` : String(port);
    throw new RestprobeError('ERR_USAGE', `cannot listen on 127.0.0.1:${where}: ${(err as Error).message}`);
  }
  // Handlers first: a client may signal as soon as it reads the export lines.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  out.write(
    [
      `# restprobe reference server listening on ${server.url}`,
      ...(server.urls.length > 1 ? server.urls.map((url, i) => `# node ${i + 1}: ${url}`) : []),
      ...(server.balancerUrl !== undefined ? [`# load balancer (each request to the next node in turn): ${server.balancerUrl}`] : []),
      `# faults: ${opts.fault.length > 0 ? opts.fault.join(', ') : 'none (a conforming server)'}`,
      `# versions: ${versionsLine[versioning]}`,
      ...(opts.reuseIds === true ? ['# ids: integers, the next above the highest in use (a deleted id comes back)'] : []),
      ...(server.caPath !== undefined ? [`# TLS: a CA made for this run, trusted with --ca: ${server.caPath}`] : []),
      ...(server.plainUrl !== undefined ? [`# plain HTTP (redirects to ${server.url}): ${server.plainUrl}`] : []),
      ...describeRateLimits(limits),
      `# webhooks: POST /v2/webhook-subscriptions; deliveries time out after ${webhookSchedules[schedule].timeoutMs} ms, first retry after ~${webhookSchedules[schedule].firstRetryMs} ms, ${webhookSchedules[schedule].attempts} attempts (${schedule} schedule), signed ${webhookScheme === 'github' ? 'in GitHub\'s style (X-Hub-Signature-256)' : 'per Standard Webhooks'}`,
      `# OAuth: ${server.url}/.well-known/oauth-authorization-server (client ${server.secrets.RESTPROBE_OAUTH_CLIENT_ID}, user ${server.secrets.RESTPROBE_OAUTH_USERNAME}); access tokens are ${jwtAlg} JWTs, signed with RESTPROBE_JWT_TEST_KEY`,
      '# in another shell, paste these lines, then:',
      // Behind a balancer every node is listed, so cross-node checks reach each one directly.
      `#   npx restprobe run ${server.balancerUrl ?? server.url} -c fixtures/reference.config.json${(server.balancerUrl === undefined ? server.urls.slice(1) : server.urls).map((u) => ` --node ${u}`).join('')}${server.caPath !== undefined ? ` --ca ${server.caPath}` : ''}${server.plainUrl !== undefined ? ` --plain-http-url ${server.plainUrl}` : ''}`,
      ...Object.entries(server.secrets).map(([name, value]) => exportLine(name, value)),
      ...(server.caPath !== undefined ? [`export RESTPROBE_CA_FILE=${server.caPath}`] : []),
      ...(server.plainUrl !== undefined ? [`export RESTPROBE_PLAIN_HTTP_URL=${server.plainUrl}`] : []),
      `export RESTPROBE_BASE_URL=${server.url}`,
      `export RESTPROBE_NODE_URLS=${server.urls.join(',')}`,
      ...(server.balancerUrl !== undefined ? [`export RESTPROBE_BALANCER_URL=${server.balancerUrl}`] : []),
      '',
    ].join('\n'),
  );
  await stopped;
}
