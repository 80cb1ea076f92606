/**
 * Problem details (RFC 9457 as the conventions fix it): what an error response must look
 * like. One validator serves every check about error bodies; each check asserts the part
 * it owns, so one fault trips one check.
 */
import type { HttpResponse } from '../model/context.js';
import { CheckFailure, CheckSkipped } from '../model/check.js';
import { describe } from './expect.js';

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
        else if (typeof o[m] !== 'string') out.push(`member "${m}" is ${typeof o[m]}, not a string`);
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

/** Fails when any response breaks the aspect, listing each offending exchange. */
export function expectProblems(responses: readonly HttpResponse[], aspect: ProblemAspect, expected: string): void {
  if (responses.length === 0) {
    // Every probe succeeded: the checks that own those statuses fail; this one has nothing to judge.
    throw new CheckSkipped('no probe got an error status, so no error body to judge (see ERR-unknown-path-404 and ERR-unknown-id-404)');
  }
  const bad = responses.flatMap((r) => problemViolations(r, aspect).map((v) => `${describe(r)}: ${v}`));
  if (bad.length > 0) {
    throw new CheckFailure(`${bad.length} error response(s) break the rule — ${bad.join('; ')}; expected ${expected}`, expected, bad.join('; '));
  }
}

/** True when a body looks like an error report: problem members, or `error`/`errors` keys. */
export function looksLikeErrorBody(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const o = json as Record<string, unknown>;
  if (typeof o['status'] === 'number' && o['status'] >= 400) return true;
  if ('title' in o && ('detail' in o || 'type' in o)) return true;
  const error = o['error'];
  const errors = o['errors'];
  return (typeof error === 'string' && error.length > 0) || (typeof error === 'object' && error !== null) || (Array.isArray(errors) && errors.length > 0);
}
