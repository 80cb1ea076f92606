/**
 * Problem details (RFC 9457 as the conventions fix it): what an error response must look
 * like. One validator serves every check about error bodies; each check asserts the part
 * it owns, so one fault trips one check.
 */
import type { HttpResponse } from '../model/context.js';
import { CheckSkipped } from '../model/check.js';
import { brief, describe, ensure, expectEvery, expectJsonObject } from './expect.js';
import { jsonType } from '../model/json.js';

/** `an array`, `a number`, `null`. */
const an = (type: string): string => (type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`);

export const problemMediaType = 'application/problem+json';

export type ProblemAspect = 'content-type' | 'members' | 'status';

/**
 * The violations of one error response, by aspect. An empty list means it conforms.
 *
 * @example
 * ```ts
 * problemViolations(res, 'members'); // ['member "detail" is missing']
 * ```
 */
export function problemViolations(res: HttpResponse, aspect: ProblemAspect): string[] {
  switch (aspect) {
    case 'content-type':
      return res.mediaType === problemMediaType ? [] : [`Content-Type is ${res.mediaType || 'absent'}`];
    case 'members': {
      const body = res.json;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['body is not a JSON object'];
      const o = body as Record<string, unknown>;
      const out: string[] = [];
      for (const m of ['type', 'title', 'detail'] as const) {
        if (!(m in o)) out.push(`member "${m}" is missing`);
        else if (typeof o[m] !== 'string') out.push(`member "${m}" is ${an(jsonType(o[m]))}, not a string`);
      }
      if (!('status' in o)) out.push('member "status" is missing');
      else if (!Number.isInteger(o['status'])) out.push(`member "status" is ${JSON.stringify(o['status'])}, not an integer`);
      return out;
    }
    case 'status': {
      const status = (res.json as Record<string, unknown> | null | undefined)?.['status'];
      return status === res.status ? [] : [`member "status" is ${JSON.stringify(status)} but the HTTP status is ${res.status}`];
    }
  }
}

/**
 * Fails when any response breaks the aspect, listing each offending exchange. When none of
 * the offending responses is even labelled problem+json, that is the failure's root cause,
 * shared by every check of error bodies that meets it (one fix, an error handler, mends
 * them all). `what` names the responses: a rate limiter's 429 (`429 responses`) is a fix of
 * its own, often another library's, so it is a finding of its own too.
 */
export function expectProblems(responses: readonly HttpResponse[], aspect: ProblemAspect, expected: string, what = 'error responses'): void {
  if (responses.length === 0) {
    // Every probe succeeded: the checks that own those statuses fail; this one has nothing to judge.
    throw new CheckSkipped('no probe got an error answer of the API\'s own, so no error body to judge (see ERR-unknown-path-404 and ERR-unknown-id-404, and any 502/503/504 noted)');
  }
  const problemOf = (r: HttpResponse): string | undefined => {
    const violations = problemViolations(r, aspect);
    return violations.length === 0 ? undefined : `${describe(r)}: ${violations.join(', ')}`;
  };
  const noun = (n: number): string => (n === 1 ? what.replace(/s$/, '') : what);
  expectEvery(responses, problemOf, (bad, all, found) => `${bad} of ${all} ${noun(all)} break${bad === 1 ? 's' : ''} the rule — ${found}; expected ${expected}`, expected, (bad) => problemCause(bad, aspect, what));
}

/** What the error responses that break an aspect share, when they share it (see {@link expectProblems}). */
function problemCause(bad: readonly HttpResponse[], aspect: ProblemAspect, what: string): string | undefined {
  if (bad.every((r) => r.mediaType !== problemMediaType)) return `${what} are not labelled ${problemMediaType}`;
  if (aspect === 'status' && bad.every((r) => problemViolations(r, 'members').length === 0)) return `the problem "status" member of ${what} is not the HTTP status`;
  return undefined;
}

/**
 * Whether an error's `field` names the offending field `o`: as it is, or as one step of a path,
 * in any case: Spring's and Laravel's `address.zip` and `tags[0]`/`tags.0`, a JSON Pointer
 * `/address/zip`, pydantic's `body.name`, ASP.NET's `Name` for the JSON `name`.
 */
function namesField(f: string, o: string): boolean {
  const wanted = o.toLowerCase();
  // Where in the request a framework says the field was (pydantic's loc: body, query, path) is no field.
  const steps = f.split(/[./[\]]/).filter((step, i) => !(i === 0 && /^(?:body|query|path|header)$/i.test(step) && f.length > step.length));
  return f.toLowerCase() === wanted || steps.some((step) => step.toLowerCase() === wanted);
}

/**
 * Fails unless a validation error's body carries `errors`, a non-empty array of objects each
 * with a `field` string, and one of them names a field of `offending` (as it is, or as the
 * last step of a path: `item.name`, `/item/name`). Returns the names the errors give.
 *
 * @example
 * ```ts
 * expectFieldErrors(res, ['name'], 'the answer to an invalid body'); // ['name']
 * ```
 */
export function expectFieldErrors(res: HttpResponse, offending: readonly string[], what: string): string[] {
  const body = expectJsonObject(res, what);
  const errors = body['errors'];
  ensure(Array.isArray(errors) && errors.length > 0, `${describe(res)}: "errors" is ${brief(errors)}, expected a non-empty array`, 'errors: [{ field }]', brief(errors));
  const withoutField = errors.filter((e) => typeof (e as Record<string, unknown> | null)?.['field'] !== 'string');
  ensure(withoutField.length === 0, `${describe(res)}: ${withoutField.length} of ${errors.length} errors have no "field" string (${brief(withoutField[0])}), expected each to name its field`, 'field: string', brief(withoutField[0]));
  const named = errors.map((e) => String((e as Record<string, unknown>)['field']));
  ensure(named.some((f) => offending.some((o) => namesField(f, o))), `${describe(res)}: errors name ${brief(named)}, expected ${offending.length === 1 ? `the invalid field ${brief(offending[0])}` : `at least one of the invalid fields ${brief(offending)}`}`, brief(offending), brief(named));
  return named;
}

/** The cause every check shares that meets an error answered with a success status (see CheckFailure's `rootCause`). */
export const errorAs2xx = 'errors are answered with a 2xx status';

/** Whether a 2xx answer carries an error body (see {@link errorBodyMarkers}). */
export const isErrorAs2xx = (res: HttpResponse): boolean => res.status >= 200 && res.status < 300 && errorBodySigns(res).length > 0;

/**
 * {@link errorBodyMarkers} of a response: a 201, or an answer with a Location, reports a
 * create, so a bare message there (`{"message": "Book created"}`) is its word on it, no error.
 */
export const errorBodySigns = (res: HttpResponse): string[] => {
  const created = res.status === 201 || res.headers['location'] !== undefined;
  // A 202's message is about work to come ("queued; review required"), not an error.
  return [...errorBodyMarkers(res.json, { created }), ...(created || res.status === 202 ? [] : bareMessageSigns(res))];
};

/** Words only an error message has: a short message in them, all the body says, reports an error. */
const errorWords = /\b(?:not found|no such|invalid|error|failed|failure|bad request|missing|required|cannot|can't|unable|denied|malformed|unexpected|does not exist|not allowed)\b/i;

/** A body that is a bare message, not JSON's object (a JSON string, or plain text: `"Not found"`), in the words of an error. */
function bareMessageSigns(res: HttpResponse): string[] {
  const text = typeof res.json === 'string' ? res.json : res.json === undefined && res.mediaType === 'text/plain' ? res.text.trim() : undefined;
  return text !== undefined && text.length > 0 && text.length <= 200 && errorWords.test(text) ? [`a bare message ${JSON.stringify(text.slice(0, 60))}`] : [];
}

/** Members whose false value reports a failure (`{"success": false}`). */
const failureFlags = ['success', 'ok', 'succeeded', 'successful'];
/** Members that only an error report carries. */
const errorMembers = /^(?:error|err|fault|exception|error_?(?:code|message|msg|description|type|details?)|errorCode|errorMessage|errorDescription)$/i;
/** Members an error report is made of: a body of nothing else, with a message, is one. */
const reportMembers = new Set(['message', 'msg', 'reason', 'code', 'description', 'details', 'detail', 'title', 'type', 'status', 'statuscode', 'status_code', 'timestamp', 'path', 'trace', 'traceid', 'trace_id', 'requestid', 'request_id']);
/** Members that carry an HTTP status: `status`, NestJS's `statusCode`, `status_code`. */
const statusMembers = /^(?:status|status_?code)$/i;

/**
 * What makes a body an error report, one reason per sign; empty when none shows. Signs:
 * problem members, an HTTP error status, a failure flag (`success: false`), error members
 * (`error`, `errors`, `error_code`…), a status word (`"status": "error"`), or a body made
 * only of report members (`message`, `code`, `timestamp`…) with a message.
 *
 * @example
 * ```ts
 * errorBodyMarkers({ success: false, message: 'name is required' }); // ['success: false']
 * ```
 */
export function errorBodyMarkers(json: unknown, { created = false }: { readonly created?: boolean } = {}): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [];
  const o = json as Record<string, unknown>;
  const out: string[] = [];
  for (const [k, status] of Object.entries(o)) {
    if (!statusMembers.test(k)) continue;
    if ((typeof status === 'number' || (typeof status === 'string' && /^\d{3}$/.test(status))) && Number(status) >= 400 && Number(status) <= 599) out.push(`${k}: ${JSON.stringify(status)}`);
    if (k === 'status' && typeof status === 'string' && /^(?:error|fail|failed|failure)$/i.test(status)) out.push(`status: ${JSON.stringify(status)}`);
  }
  if ('title' in o && ('detail' in o || 'type' in o)) out.push('problem members (title with detail or type)');
  for (const flag of failureFlags) if (o[flag] === false) out.push(`${flag}: false`);
  for (const [k, v] of Object.entries(o)) {
    if (errorMembers.test(k) && v !== null && v !== false && v !== '' && !(typeof v === 'object' && Object.keys(v).length === 0)) out.push(`"${k}" member`);
  }
  const errors = o['errors'];
  if ((Array.isArray(errors) && errors.length > 0) || (typeof errors === 'object' && errors !== null && !Array.isArray(errors) && Object.keys(errors).length > 0)) out.push('"errors" member');
  const keys = Object.keys(o);
  // An envelope's empty `data` ({code, msg, data: null}, as Gin and Spring APIs answer; {} and [] too) is part of the report.
  const data = o['data'];
  const emptyData = data === null || (typeof data === 'object' && Object.keys(data).length === 0);
  const reportOnly = keys.filter((k) => !(k === 'data' && emptyData));
  // A status member that names a success says the report is none ({statusCode: 200, message: "OK"}), as an envelope's code 0 or 2xx does ({code: 0, msg: "success"}).
  const saysSuccess = keys.some((k) => statusMembers.test(k) && /^\d+$/.test(String(o[k])) && Number(o[k]) < 400) || (typeof o['code'] === 'number' && (o['code'] === 0 || (o['code'] >= 200 && o['code'] <= 299)));
  if (out.length === 0 && !created && !saysSuccess && reportOnly.length > 0 && reportOnly.every((k) => reportMembers.has(k.toLowerCase())) && reportOnly.some((k) => /^(?:message|msg|reason|detail)$/i.test(k))) {
    out.push(`only report members (${keys.join(', ')})`);
  }
  return out;
}

/** Lines that only a stack trace has, by platform. */
const stackTraceSigns: readonly (readonly [string, RegExp])[] = [
  ['a JavaScript stack frame', /\bat (?:async )?(?:[\w$.<>[\]]+ \()?(?:file:\/\/|node:|\/|[A-Za-z]:\\)[^\s()]*:\d+:\d+\)?/],
  ['a Python traceback', /Traceback \(most recent call last\)|File "[^"]+", line \d+/],
  ['a Java stack frame', /\bat [\w$]+(?:\.[\w$<>]+)+\([\w$]+\.(?:java|kt|scala):\d+\)|Exception in thread "/],
  ['a .NET stack frame', /\bat [\w.`<>]+\(.*\) in .+:line \d+/],
  ['a Go stack trace', /goroutine \d+ \[|\S+\.go:\d+ \+0x[0-9a-f]+/],
  ['a PHP stack trace', /Stack trace:\s*#0|#\d+ \S+\.php\(\d+\)/],
  ['a Ruby backtrace', /\S+\.rb:\d+:in [`']/],
];
const htmlMarkup = /<(?:!doctype\s+html|html|head|body|pre|h1)\b/i;

/** Every string in a JSON value (iteratively: a hostile body may nest deep), or the text itself when the body is not JSON. */
function strings(res: HttpResponse): string[] {
  if (res.json === undefined) return [res.text];
  const out: string[] = [];
  const pending: unknown[] = [res.json];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) pending.push(x);
  }
  return out;
}

/**
 * What an error body reveals of the implementation: a stack trace (in any body), or HTML
 * markup inside a body labelled JSON (an HTML error page labelled as such is the
 * Content-Type check's finding). Empty when it reveals nothing.
 *
 * @example
 * ```ts
 * leakedInternals(res); // ['a JavaScript stack frame: "at parseJson (/srv/app/body.js:73:17)"']
 * ```
 */
export function leakedInternals(res: HttpResponse): string[] {
  const texts = strings(res);
  const out: string[] = [];
  for (const [what, sign] of stackTraceSigns) {
    const hit = texts.map((t) => sign.exec(t)?.[0]).find((m) => m !== undefined);
    if (hit !== undefined) out.push(`${what}: ${JSON.stringify(hit.slice(0, 80))}`);
  }
  if (/json/.test(res.mediaType) && texts.some((t) => htmlMarkup.test(t))) out.push('HTML markup in a JSON body');
  return out;
}
