/**
 * A server for the benchmark, in its own process so load generators and servers do not
 * share an event loop: `minimal` (bare node:http sending fixed JSON) or `reference`
 * (the reference server, optionally pre-filled). Reports its URL over IPC.
 */
import { createServer } from 'node:http';
import { startReferenceServer } from '../reference-server/src/index.js';

export interface FixtureReady {
  readonly url: string;
  readonly apiKey?: string;
}

const [kind, arg] = process.argv.slice(2);
const send = (ready: FixtureReady) => process.send?.(ready);

if (kind === 'minimal') {
  const body = Buffer.from(arg ?? '{"ok":true}');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => send({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
} else if (kind === 'reference') {
  const server = await startReferenceServer({ port: 0, seedProjects: Number(arg ?? 0) });
  send({ url: server.url, apiKey: server.secrets.RESTPROBE_API_KEY });
} else {
  process.stderr.write(`unknown fixture kind ${kind}\n`);
  process.exit(2);
}
