/**
 * `restprobe init --openapi FILE|URL [-o restprobe.config.yaml] [--probe URL] [--force]`:
 * writes a commented YAML config drafted from the team's OpenAPI document. It contacts no
 * target unless `--probe` names one (a GET per collection, to confirm what was inferred),
 * never overwrites a file without `--force`, and checks what it wrote against the config
 * schema before saving it.
 */
import { access, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { normaliseBaseUrl } from '../config/base-url.js';
import { problemsFromAjv } from '../config/problems.js';
import { configSchemaPath, loadConfigValidator } from '../config/schema.js';
import { ExitCode, RestprobeError } from '../errors.js';
import { inferConfig, type Inference } from '../openapi/infer.js';
import { loadOpenApi } from '../document/load.js';
import { probeCollections, type ProbeFinding } from '../openapi/probe.js';
import { renderDraft } from '../openapi/render.js';
import { toolVersion } from './version.js';

export interface InitOptions {
  readonly openapi: string;
  /** Where to write; default `restprobe.config.yaml`. */
  readonly output?: string;
  readonly force?: boolean;
  /** A base URL to confirm the collections against. */
  readonly probe?: string;
  /** Put before every environment variable name (`RESTPROBE_`). */
  readonly envPrefix?: string;
}

const exists = async (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/** The bundled schema, as a `$schema` an editor finds from where the file is written. */
function schemaRef(output: string): string {
  const path = relative(dirname(resolve(output)), configSchemaPath()).split('\\').join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** The written text, read back, must be a config restprobe accepts: anything else is restprobe's bug. */
async function selfCheck(text: string): Promise<void> {
  const validate = await loadConfigValidator();
  if (!validate(parse(text))) {
    throw new RestprobeError('ERR_HARNESS', 'init drafted a config its own schema refuses; nothing was written', problemsFromAjv(validate.errors ?? []));
  }
}

function probeLines(baseUrl: string, findings: readonly ProbeFinding[]): string {
  const width = Math.max(...findings.map((f) => f.name.length));
  return [`probe ${baseUrl}:`, ...findings.map((f) => `  ${f.confirmed ? 'ok  ' : 'look'}  ${f.name.padEnd(width)}  GET ${f.path} → ${f.verdict}`)].join('\n');
}

function summary(output: string, inference: Inference, text: string): string {
  const config = inference.draft.config;
  const collections = (config['collections'] as { name: string }[] | undefined)?.map((c) => c.name) ?? [];
  const fillIns = text.split('\n').filter((l) => /# fill in/.test(l)).length;
  const env = text.split('\n').filter((l) => /^# +export /.test(l)).map((l) => l.replace(/^# +export ([A-Z0-9_]+)=.*$/, '$1'));
  return [
    `wrote ${output}: ${collections.length} collection${collections.length === 1 ? '' : 's'}${collections.length > 0 ? ` (${collections.join(', ')})` : ''}; ${fillIns} line${fillIns === 1 ? '' : 's'} to fill in ("# fill in").`,
    ...(env.length > 0 ? [`secrets it reads from the environment: ${env.join(', ')}`] : []),
    'The document, not the API, said all this: check it before you trust a run (see the file\'s header).',
  ].join('\n');
}

/**
 * Runs `init`; returns the exit code.
 *
 * @example
 * ```ts
 * await initCommand({ openapi: 'openapi.yaml', output: 'restprobe.config.yaml' }); // 0, the file written
 * await initCommand({ openapi: 'openapi.yaml' }); // throws ERR_USAGE: restprobe.config.yaml exists …
 * ```
 */
export async function initCommand(opts: InitOptions, out: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const output = opts.output ?? 'restprobe.config.yaml';
  if (!['.yaml', '.yml'].includes(extname(output).toLowerCase())) {
    throw new RestprobeError('ERR_USAGE', `-o ${output}: init writes YAML, which carries its comments; name the file .yaml or .yml`);
  }
  if (opts.force !== true && (await exists(output))) {
    throw new RestprobeError('ERR_USAGE', `${output} exists: init does not overwrite it (pass --force to replace it, or -o to write elsewhere)`);
  }
  let probeUrl: string | undefined;
  if (opts.probe !== undefined) {
    const checked = normaliseBaseUrl(opts.probe);
    if (!checked.ok) throw new RestprobeError('ERR_USAGE', `--probe ${checked.problem}`);
    probeUrl = checked.url;
  }
  const doc = await loadOpenApi(opts.openapi);
  const inference = inferConfig(doc, {
    ...(opts.envPrefix !== undefined && { envPrefix: opts.envPrefix }),
    ...(probeUrl !== undefined && { baseUrl: probeUrl }),
    schemaRef: schemaRef(output),
    fileName: basename(output),
    toolVersion: toolVersion(),
    // A URL as given; a file from the config's folder, as the config reads it.
    openapi: /^https?:\/\//i.test(opts.openapi) ? opts.openapi : relative(dirname(resolve(output)), resolve(opts.openapi)) || '.',
  });
  if (probeUrl !== undefined) {
    const findings = await probeCollections(probeUrl, inference.probes, inference.credential, env);
    findings.forEach((f, i) => inference.draft.trailing(['collections', i, 'path'], `probed: ${f.verdict}`));
    out.write(`${probeLines(probeUrl, findings)}\n`);
  }
  const text = renderDraft(inference.draft);
  await selfCheck(text);
  try {
    await writeFile(output, text, { flag: opts.force === true ? 'w' : 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new RestprobeError('ERR_USAGE', `${output} exists: init does not overwrite it (pass --force to replace it)`);
    throw new RestprobeError('ERR_USAGE', `cannot write ${output} (${code ?? 'unwritable'})`, [], { cause: err });
  }
  out.write(`${summary(output, inference, text)}\n`);
  return ExitCode.ok;
}
