/**
 * `restprobe serve`: the bundled reference server. It prints shell lines (comments, and
 * one `export` per secret) so a second shell can paste them and run against it.
 */
import { faultCatalogue, startReferenceServer } from '../../reference-server/src/index.js';
import { RestprobeError } from '../errors.js';

export interface ServeOptions {
  readonly port: string;
  readonly fault: string[];
  readonly listFaults: boolean;
  readonly json: boolean;
}

export function renderFaultList(json: boolean): string {
  if (json) return JSON.stringify(faultCatalogue.map(({ name, description, detects }) => ({ name, description, detects })), null, 2);
  const width = Math.max(...faultCatalogue.map((f) => f.name.length));
  return faultCatalogue.map((f) => `${f.name.padEnd(width)}  ${f.description}  [${f.detects.join(', ')}]`).join('\n');
}

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
  let server;
  try {
    server = await startReferenceServer({ port, faults: opts.fault });
  } catch (err) {
    throw new RestprobeError('ERR_USAGE', `cannot listen on 127.0.0.1:${port}: ${(err as Error).message}`);
  }
  out.write(
    [
      `# restprobe reference server listening on ${server.url}`,
      `# faults: ${opts.fault.length > 0 ? opts.fault.join(', ') : 'none (a conforming server)'}`,
      '# in another shell, paste these lines, then:',
      `#   npx restprobe run ${server.url} -c fixtures/reference.config.json`,
      ...Object.entries(server.secrets).map(([name, value]) => `export ${name}=${value}`),
      `export RESTPROBE_BASE_URL=${server.url}`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
