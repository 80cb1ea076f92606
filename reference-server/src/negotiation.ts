/**
 * Content negotiation: what the client accepts (Accept, RFC 9110 §12.5.1) and what it
 * sends (Content-Type, §8.3). The server answers in `application/json`; its listings are also
 * served as `text/csv` to an Accept that prefers it (csv.ts).
 */
import { acceptsJson, mediaTypeEssence } from './media-types.js';
import { genericProblem, ProblemError } from './problem.js';
import { mediaTypes } from './respond.js';

/** Throws 406 unless the request accepts `application/json`. */
export function requireAcceptableJson(accept: string | undefined): void {
  if (!acceptsJson(accept)) {
    throw new ProblemError(
      genericProblem(406, 'This resource is available only as application/json; send an Accept header that admits it.'),
    );
  }
}

/** The media types a body may have, by method: PATCH also takes a JSON merge patch. */
export function acceptedBodyTypes(method: 'POST' | 'PUT' | 'PATCH'): readonly string[] {
  return method === 'PATCH' ? [mediaTypes.mergePatch, mediaTypes.json] : [mediaTypes.json];
}

/**
 * Throws 415 unless the body's Content-Type is one the method takes. The answer lists
 * what would have been taken: `Accept-Post`/`Accept-Patch`, and `Accept` as RFC 9110
 * §15.5.16 suggests.
 */
export function requireSupportedContentType(
  method: 'POST' | 'PUT' | 'PATCH',
  contentType: string | undefined,
): void {
  const accepted = acceptedBodyTypes(method);
  if (contentType !== undefined && accepted.includes(mediaTypeEssence(contentType))) return;
  const list = accepted.join(', ');
  const headers: Record<string, string> = { Accept: list };
  if (method === 'POST') headers['Accept-Post'] = list;
  if (method === 'PATCH') headers['Accept-Patch'] = list;
  throw new ProblemError(
    genericProblem(
      415,
      contentType === undefined
        ? `The request has a body but no Content-Type; send it as ${list}.`
        : `${method} bodies here must be sent as ${list}.`,
    ),
    headers,
  );
}
