/**
 * Test support for stand-in webhook senders: an API written as a test's own `node:http`
 * server (subscriptions at POST /hooks, projects at /projects), listened on 127.0.0.1:0, and
 * the catalogue run against it with a config of the projects and the webhooks section given.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile } from '../../src/config/load.js';
import { runChecks } from '../../src/engine/run.js';
import type { Check } from '../../src/model/check.js';
import type { CheckResult } from '../../src/model/result.js';

export type Sender = Server & { readonly url: string };

const listening = new Set<Sender>();

/** `server` listening on 127.0.0.1, port 0; closed by {@link closeSenders}. */
export async function listenSender(server: Server): Promise<Sender> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const sender = Object.assign(server, { url: `http://127.0.0.1:${port}` });
  listening.add(sender);
  return sender;
}

/** Closes every sender {@link listenSender} opened: for a test file's afterEach. */
export async function closeSenders(): Promise<void> {
  const all = [...listening];
  listening.clear();
  await Promise.all(all.map((s) => new Promise((resolve) => s.close(resolve))));
}

/** `checks` against `sender`, its projects collection marked by `label`, with `collection` and `webhooks` added to the config. */
export async function runAgainstSender(sender: Sender, checks: readonly Check[], collection: Record<string, unknown>, webhooks: Record<string, unknown>): Promise<CheckResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'restprobe-sender-'));
  const configPath = join(dir, 'restprobe.config.json');
  await writeFile(configPath, JSON.stringify({
    baseUrl: sender.url,
    collections: [{ name: 'projects', path: '/projects', create: { body: { name: 'p' } }, mark: { field: 'label' }, ...collection }],
    webhooks: { subscribe: { path: '/hooks', body: { url: '{url}' }, secretField: 'secret' }, collection: 'projects', scheme: 'standard', ...webhooks },
  }));
  const profile = await loadProfile({ configPath, env: {} });
  return (await runChecks({ profile, checks, seed: 1 })).results;
}

/** The signing secret the stand-in senders return with a subscription. */
export const senderSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A request's JSON body; `{}` when it has none. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** How a stand-in answers: a status, a JSON body (labelled so), a Location. */
export type Reply = (status: number, json?: unknown, location?: string) => void;

export function replyTo(res: ServerResponse): Reply {
  return (status, json, location) => {
    res.writeHead(status, { ...(json !== undefined && { 'content-type': 'application/json' }), ...(location && { location }) });
    res.end(json === undefined ? undefined : JSON.stringify(json));
  };
}

/** The answer to a stand-in's `n`th subscription: its id, its Location and the signing secret. */
export function subscribed(reply: Reply, n: number | string): void {
  reply(201, { id: `s${n}`, secret: senderSecret }, `/hooks/s${n}`);
}
