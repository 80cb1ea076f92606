#!/usr/bin/env node
// `npm start`: the main job. Starts the bundled reference server (`restprobe serve --tls`),
// (two nodes over one store, so cross-node checks run too, over HTTPS), runs every check against
// it with the reference config, writes reports to reports/ (JSON, JUnit, Markdown and HTML),
// stops the server, and exits with the run's exit code.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Built by `npm ci` (prepare): how serve's export lines read back (a JWK comes single-quoted).
import { readExportLines } from '../dist/src/cli/export-lines.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'restprobe.js');
const extraArgs = process.argv.slice(2);

// Over HTTPS (a CA made for the run), so HSTS and the plain-HTTP redirect are judged too.
const server = spawn(process.execPath, [bin, 'serve', '--port', '0', '--nodes', '2', '--tls'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const env = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (!out.includes('RESTPROBE_BASE_URL=')) return;
    resolve(readExportLines(out));
  });
  server.once('exit', (code) => reject(new Error(`the reference server exited (${code}) before it was ready:\n${out}`)));
}).catch((err) => {
  process.stderr.write(`npm start: ${err.message}\n`);
  process.exit(3);
});

const run = spawn(
  process.execPath,
  [
    bin,
    'run',
    env.RESTPROBE_BASE_URL,
    '-c',
    join(root, 'fixtures', 'reference.config.json'),
    '--report-dir',
    join(root, 'reports'),
    ...(env.RESTPROBE_NODE_URLS ?? '').split(',').slice(1).flatMap((url) => ['--node', url]),
    ...(env.RESTPROBE_CA_FILE ? ['--ca', env.RESTPROBE_CA_FILE] : []),
    ...(env.RESTPROBE_PLAIN_HTTP_URL ? ['--plain-http-url', env.RESTPROBE_PLAIN_HTTP_URL] : []),
    // The server's own OpenAPI document: every answer of the run is held to it (the DOC checks).
    '--openapi',
    `${env.RESTPROBE_BASE_URL.replace(/\/+$/, '')}/openapi.json`,
    ...extraArgs,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
);
const code = await new Promise((resolve) => run.once('exit', (c) => resolve(c ?? 3)));
server.kill('SIGTERM');
process.exitCode = code;
