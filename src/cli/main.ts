/**
 * The restprobe command line. Exit codes: 0 no failures; 1 at least one failure;
 * 2 usage or config error; 3 the target could not be reached or the harness failed;
 * 130 a signal interrupted the run.
 */
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, RestprobeError, exitCodeFor } from '../errors.js';
import { toolVersion } from './version.js';

// Each command loads what it needs when it runs: `--help` and `checks` load neither the
// engine nor the HTTP stack, and `serve` loads no harness.

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The report formats written when `--format` is not given. */
const defaultFormats = 'json,junit,md,html';

function program(): Command {
  const cli = new Command('restprobe')
    .description('Conformance tests for HTTP/JSON APIs that follow the REST API contract conventions.')
    .version(toolVersion())
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ restprobe serve --port 8080                       start the reference server (prints export lines)
  $ restprobe run http://127.0.0.1:8080 -c fixtures/reference.config.json
  $ restprobe run https://staging.example.com --only ERR --skip ERR-bad-input-no-5xx
  $ restprobe init --openapi openapi.yaml             draft a config from the team's OpenAPI document
  $ restprobe checks --json                           the check catalogue
  $ restprobe merge-reports shard-1 shard-2           one report from a sharded run's parts
  $ restprobe cleanup reports -c restprobe.config.json   delete what a killed or interrupted run left
  $ restprobe webhooks check-receiver URL --secret-env WEBHOOK_SECRET   test a webhook receiver

Exit codes: 0 no failures · 1 failures (with --baseline: new failures or lost coverage) · 2 usage or config error (incl. credentials the target wants, a run that judged nothing, a report that is not restprobe's) · 3 target or proxy unreachable (incl. an untrusted TLS certificate: give --ca), a check that could not run, or a harness error · 130 run interrupted by a signal (Ctrl-C, SIGTERM)

Docs (in the package too, under node_modules/restprobe/docs/): docs/cli.md every command, flag and report · docs/config.md the config reference · docs/checks.md the check catalogue · docs/ci.md CI workflows`,
    );

  cli
    .command('run')
    .description('probe a target and write compliance reports')
    .argument('[base-url]', 'the API\'s base URL (overrides baseUrl in the config)')
    .option('-c, --config <file>', 'target config, JSON or YAML (see docs/config.md; schema fixtures/schema/restprobe.config.schema.json)')
    .option('--only <selector>', 'run only this section prefix (ERR) or check id; repeatable, or comma-separated', collect, [])
    .option('--skip <selector>', 'skip this section prefix or check id; repeatable, or comma-separated', collect, [])
    .option('--report-dir <dir>', 'where reports are written', 'reports')
    .option('--format <list>', 'report formats, comma-separated: json,junit,md,html,allure (allure-results/), and github (annotations on stdout)', defaultFormats)
    .option('--seed <n>', 'seed for property checks (replays a reported failure)')
    .option('--strict', 'warnings (SHOULD-level rules) fail the run', false)
    .option('--read-only', 'send no request that writes (POST, PUT, PATCH, DELETE)', false)
    .option('--proxy <url>', 'send every request through this HTTP proxy or gateway')
    .option('--node <url>', 'another base URL of the same deployment, for cross-node checks (adds to config nodes); repeatable', collect, [])
    .option('--ca <file>', 'a PEM file of CA certificates to trust for an https target (adds to Node\'s own; verification is never off)')
    .option('--no-destructive', 'send no probe that can hurt the target (oversized and deeply nested bodies)')
    .option('--openapi <file-or-url>', "the API's OpenAPI 3.0 or 3.1 document (config openapi): every answer of the run is held to it (the DOC checks)")
    .option('--plain-http-url <url>', "the target's plain-HTTP URL, which must redirect to HTTPS and serve nothing (config plainHttpUrl); no credential is sent to it")
    .option('--baseline <file>', 'an earlier restprobe-report.json: fail only on new failures and lost coverage (checks that vanished or now skip); list fixed and known failures; judge breaking changes of the response shapes it recorded (VER-compatible-within-major)')
    .option('--shard <i/n>', 'run only part i of n of the selected checks (needs --seed, the same in every shard); merge the parts with merge-reports')
    .addHelpText('after', `
Examples:
  $ restprobe run http://127.0.0.1:8080 -c fixtures/reference.config.json
  $ restprobe run https://staging.example.com -c restprobe.config.json --read-only --format json,junit
  $ restprobe run https://staging.example.com --only ERR-bad-input-no-5xx --seed 1234   replay a property failure
  $ restprobe run https://staging.example.com -c restprobe.config.json --baseline main-report.json   guard against regressions

Exit codes: 0 no failures · 1 failures (with --baseline: a regression) · 2 usage or config error (incl. an unwritable --report-dir, an interrupted run's report as --baseline) · 3 target unreachable, or a check could not run · 130 interrupted by a signal.

Interrupting: the first Ctrl-C (or SIGTERM) starts no new check and lets running ones finish
and delete what they created; the second stops them at once (they still clean up); either
way every report is written and says "interrupted", listing the checks not run (JUnit:
skipped). The third quits at once. Every item the run creates is written to
<report-dir>/restprobe-ledger.jsonl the moment it exists: after any ending (even SIGKILL),
\`restprobe cleanup <report-dir> -c <config>\` deletes what is left, and the next run in that
directory says when an earlier one left items.`)
    .action(async (baseUrl: string | undefined, opts) => {
      const { runCommand } = await import('./run-command.js');
      process.exitCode = await runCommand(baseUrl, opts);
    });

  cli
    .command('cleanup')
    .description("delete what runs left on the target, from their report directory's ledger (restprobe-ledger.jsonl): after a killed or interrupted run")
    .argument('<report-dir>', "the run's --report-dir (or its restprobe-ledger.jsonl)")
    .argument('[base-url]', "the API's base URL (default: the one the ledger's runs used)")
    .option('-c, --config <file>', 'the target config the run used (credentials, collections)')
    .option('--proxy <url>', 'send every request through this HTTP proxy or gateway')
    .option('--ca <file>', 'a PEM file of CA certificates to trust for an https target')
    .addHelpText('after', `
Only what the ledger still owns is deleted, by the rules of a run's own cleanup: inside the base
URL's path and the target's origins; a 404 counted as gone only when a GET agrees; a short or
numeric id deleted only after a GET shows restprobe's mark; a create that got no answer looked
for by its mark (a listing filtered by the collection's mark field). Each outcome is appended
to the ledger.

Exit codes: 0 nothing left · 1 items remain on the target (listed: certain or possible), or ledger lines it could not read (named) · 2 usage or config error (no ledger in the directory, or a file none of whose lines is a ledger entry).

Examples:
  $ restprobe cleanup reports -c restprobe.config.json
  $ restprobe cleanup reports https://staging.example.com -c restprobe.config.json`)
    .action(async (dir: string, baseUrl: string | undefined, opts) => {
      const { cleanupCommand } = await import('./cleanup-command.js');
      process.exitCode = await cleanupCommand(dir, baseUrl, opts);
    });

  cli
    .command('merge-reports')
    .description("merge the reports of a run's shards (--shard i/n) into the whole run's report")
    .argument('<report...>', "each shard's report directory (or its restprobe-report.json)")
    .option('--report-dir <dir>', 'where the merged reports are written', 'reports')
    .option('--format <list>', 'report formats, comma-separated: json,junit,md,html,allure,github', defaultFormats)
    .option('--baseline <file>', 'an earlier restprobe-report.json to compare the merged report with, as run --baseline')
    .addHelpText('after', `
Exit codes are those of the whole run: 1 failures (or a regression against --baseline), 3 a check could not run, 2 reports that are not the shards of one run.

Examples:
  $ restprobe run https://staging.example.com -c restprobe.config.json --seed 42 --shard 1/2 --report-dir shard-1
  $ restprobe run https://staging.example.com -c restprobe.config.json --seed 42 --shard 2/2 --report-dir shard-2
  $ restprobe merge-reports shard-1 shard-2 --report-dir reports`)
    .action(async (inputs: string[], opts) => {
      const { mergeCommand } = await import('./merge-command.js');
      process.exitCode = await mergeCommand(inputs, opts);
    });

  cli
    .command('init')
    .description("write a commented restprobe config drafted from the team's OpenAPI 3.0 or 3.1 document (JSON or YAML, $refs across files resolved)")
    .requiredOption('--openapi <file-or-url>', 'the OpenAPI document: a file, or an http(s) URL')
    .option('-o, --output <file>', 'where to write the config (YAML)', 'restprobe.config.yaml')
    .option('--probe <url>', 'a base URL to confirm the inferred collections against (one GET each) before writing; without it init contacts no target')
    .option('--env-prefix <prefix>', 'put this before every environment variable name the config gives (RESTPROBE_ → RESTPROBE_API_KEY)', '')
    .option('--force', 'overwrite the output file if it exists', false)
    .addHelpText('after', `
From the document, init infers: the collections (a path whose GET lists items, with its item
path) and their sub-collections and noun actions; the id type; create, replace, patch and invalid
bodies (the document's examples first, else generated from the request schemas and checked
against them); page parameters, filters, sorts and a mark field; the methods each path takes;
the credentials (security schemes become auth.apiKey and auth.oauth with environment variable
names, never values); the version scheme (a /v2 in the server URL or the paths); a webhook
subscription (an operation that calls back the URL in its body). What the config cannot hold
(the page envelope) is a comment; what the document does not say is a commented line ending
"# fill in: …", as is notConsumed, with the media types the document says the writes take
(many frameworks take forms whatever their document says).

Generated documents are often wrong (Django REST framework types integer ids as strings): check
the file, confirm it with --probe against a staging deployment, and edit it. It is yours.

Exit codes: 0 written · 2 usage error (the output exists without --force), or an OpenAPI document that cannot be read, is not OpenAPI 3.x, or has a $ref that does not resolve · 3 the --probe target could not be reached (nothing written).

Examples:
  $ restprobe init --openapi openapi.yaml
  $ restprobe init --openapi https://staging.example.com/openapi.json --probe https://staging.example.com
  $ restprobe init --openapi http://127.0.0.1:8080/openapi.json --env-prefix RESTPROBE_ -o reference.config.yaml   the reference server's own document`)
    .action(async (opts: { openapi: string; output: string; probe?: string; envPrefix: string; force: boolean }) => {
      const { initCommand } = await import('./init-command.js');
      process.exitCode = await initCommand(opts);
    });

  cli
    .command('checks')
    .description('list the check catalogue')
    .option('--json', 'as a JSON array of {id, section, severity, title, rule, needs, uses, configKeys, schedule, dependsOn, assumes, mode}', false)
    .option('--markdown', 'as the Markdown of docs/checks.md', false)
    .action(async (opts: { json: boolean; markdown: boolean }) => {
      if (opts.markdown) {
        const [{ listedChecks, renderCatalogueMarkdown }, { faultIndex }, { faultCatalogue }] = await Promise.all([import('./checks-command.js'), import('./fault-index.js'), import('../../reference-server/src/faults.js')]);
        process.stdout.write(`${renderCatalogueMarkdown(listedChecks, faultIndex(), faultCatalogue)}\n`);
        return;
      }
      // The build's listing, else made from the catalogue (the same text).
      const { readListing } = await import('./catalogue-listing.js');
      const listing = (await readListing()) ?? (await import('./checks-command.js')).listing();
      process.stdout.write(`${opts.json ? listing.json : listing.text}\n`);
    });

  cli
    .command('serve')
    .description('start the bundled reference server on 127.0.0.1')
    .option('--port <n>', 'port to listen on (0: any free port)', '8080')
    .option('--nodes <n>', 'start n nodes (1-8) over one shared store, on ports port, port+1, … (port 0: each a free one)', '1')
    .addOption(new Option('--fault <name>', 'switch on a named fault; repeatable').argParser(collect).default([]))
    .option('--seed-projects <n>', 'pre-fill n projects labelled "seed" (for walks over big collections)', '0')
    .option('--reuse-ids', 'integer ids, the next above the highest in use, so a deleted id comes back (as many real APIs)', false)
    .option('--rate-limit <n/window>', 'limit every client but the probe keys to n requests per window (20/10s, 600/1m, 50/500ms), one counter shared by every node: 429 + Retry-After')
    .option('--probe-rate-limit <n/window>', 'the quota of the probe keys RESTPROBE_LIMIT_KEY and RESTPROBE_LIMIT_KEY_2 (default 5/250ms)')
    .option('--rate-limit-algorithm <name>', 'token-bucket (default) or fixed-window')
    .option('--retry-after <format>', "a 429's Retry-After as seconds (default) or http-date")
    .option('--no-overload', 'never shed a client that keeps sending while limited (by default it gets 503 + Retry-After)')
    .option('--versioning <scheme>', 'how clients name the API version: url (/v2/projects, the default), header (/projects with Accept: application/vnd.restprobe+json; version=2), x-api-version (/projects with X-API-Version: 2) or query (/projects?v=2, discouraged)', 'url')
    .option('--tls', 'HTTPS with a CA made at start (its path is printed, for --ca), HSTS, and a plain-HTTP listener on the next port that redirects', false)
    .option('--balancer', 'a load balancer in front of the nodes, on the next port: each request to the next node in turn (run against it with every node as --node)', false)
    .option('--webhook-schedule <name>', 'webhook retries: short (250 ms timeout, first retry after ~50 ms, 6 attempts; what the reference config expects) or standard (15 s, 5 s, 8 attempts)', 'short')
    .option('--webhook-scheme <name>', "how deliveries are signed: standard (Standard Webhooks) or github (X-Hub-Signature-256, no timestamp: the config's webhooks.scheme must say github)", 'standard')
    .option('--jwt-alg <alg>', 'how the OAuth server signs access tokens: RS256 (the default; public key in /oauth/jwks) or HS256 (a shared secret, never published)', 'RS256')
    .option('--list-faults', 'list the faults and the checks each must trip', false)
    .option('--json', 'with --list-faults: as JSON', false)
    .addHelpText('after', `
Examples:
  $ restprobe serve --port 8080
  $ restprobe serve --port 8080 --fault if-match-ignored --fault errors-as-plain-json
  $ restprobe serve --port 8080 --nodes 2 --fault etag-per-node
  $ restprobe serve --port 8443 --tls
  $ restprobe serve --port 8080 --jwt-alg HS256 --fault jwt-exp-unchecked
  $ restprobe serve --list-faults --json`)
    .action(async (opts) => {
      const { serveCommand } = await import('./serve-command.js');
      await serveCommand(opts);
    });

  const webhooks = cli.command('webhooks').description("webhook tools: test a team's own receiver");
  webhooks
    .command('check-receiver')
    .description("send deliveries to a webhook receiver as the scheme's real senders do, and judge its answers (2xx for a valid one, quickly, and for one signed during a secret rotation; 4xx for a wrong signature, a re-serialised body, a stale timestamp, missing signature headers, and a future timestamp should get one; 2xx for a repeat, processed once where --processed-url tells)")
    .argument('<url>', "the receiver's URL")
    .requiredOption('--secret-env <name>', 'the environment variable that holds the signing secret (never printed)')
    .addOption(new Option('--scheme <name>', 'how deliveries are signed').choices(['standard', 'github', 'stripe']).default('standard'))
    .option('--answer-within-ms <n>', 'how fast a valid delivery must get its 2xx', '5000')
    .option('--tolerance-seconds <n>', "the receiver's timestamp tolerance; stale and future probes go ten times past it", '300')
    .option('--processed-url <template>', 'where the receiver tells how often it processed an event ({id} replaced; a GET answering JSON with a numeric count): a repeat must then be processed once; without it, that is not judged (skip)')
    .option('--settle-ms <n>', 'how long the processed count may take to settle after the repeat (at least; twice what the first processing took where that is longer; the first is waited on for four times this before the repeat is sent): a receiver that works asynchronously counts later', '2000')
    .option('--header <line>', "a header sent with every delivery, 'Name: value' (a gateway's key); repeatable", collect, [])
    .option('--stripe-api-version <version>', "the api_version a stripe event carries: the endpoint's pinned version, which stripe-go and Stripe.net require (default 2024-06-20)")
    .option('--json', 'the JSON report on stdout, instead of a line per check and the summary', false)
    .option('--report-dir <dir>', 'also write the report files here, as run does (default formats json,junit,md,html)')
    .option('--format <list>', 'report file formats, comma-separated: json,junit,md,html,allure,github (into --report-dir, default reports)')
    .addHelpText(
      'after',
      `
Examples:
  $ export WEBHOOK_SECRET=whsec_…
  $ restprobe webhooks check-receiver http://127.0.0.1:3000/webhooks --secret-env WEBHOOK_SECRET
  $ restprobe webhooks check-receiver https://hooks.example.com/github --secret-env GH_SECRET --scheme github
  $ restprobe webhooks check-receiver https://hooks.example.com/in --secret-env WEBHOOK_SECRET --processed-url 'https://hooks.example.com/processed/{id}' --header 'X-Gateway-Key: k'

Exit codes: 0 no check failed (a warning does not fail) · 1 a check failed · 2 usage error or the variable is unset · 3 the receiver could not be reached (or answered no delivery) · 130 interrupted by a signal (Ctrl-C, SIGTERM): the report says so`,
    )
    .action(async (url: string, opts) => {
      const { checkReceiverCommand } = await import('./webhooks-command.js');
      process.exitCode = await checkReceiverCommand(url, opts);
    });

  return cli;
}

/**
 * A reader that went away (`restprobe run … | head`) ends nothing but the output: the run
 * goes on, cleans up and writes its reports, instead of dying on EPIPE with what it created
 * still on the target.
 */
function outlastClosedReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    });
  }
}

async function main(argv: string[]): Promise<void> {
  outlastClosedReaders();
  try {
    await program().parseAsync(argv);
  } catch (err) {
    process.exitCode = reportError(err);
  }
}

/** Prints an error as one line per problem (never a stack trace) and returns the exit code. */
function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version exit through here too, with code 0.
    return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (err instanceof RestprobeError) {
    process.stderr.write(`restprobe: ${err.message}\n`);
    for (const p of err.problems) process.stderr.write(`  - ${p}\n`);
    return exitCodeFor(err.code);
  }
  process.stderr.write(`restprobe: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
  if (process.env['RESTPROBE_DEBUG'] && err instanceof Error) process.stderr.write(`${err.stack}\n`);
  return ExitCode.harnessError;
}

await main(process.argv);
