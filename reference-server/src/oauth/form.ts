/**
 * Reading `application/x-www-form-urlencoded` bodies (the authorize POST and the token
 * endpoint), with a small cap, and the parameter rules of RFC 6749 §3.1 and §3.2: no
 * parameter may appear twice, and one sent empty counts as absent.
 */
import type { IncomingMessage } from 'node:http';
import { readBody, strictUtf8 } from '../body.js';
import { ProblemError } from '../problem.js';

/** Forms here hold a few short fields. */
const maxFormBytes = 16 * 1024;

export const formType = 'application/x-www-form-urlencoded';

/** Why a form could not be read, worded for an error_description. */
export class FormError extends Error {}

/** Whether the Content-Type names a form (parameters such as charset allowed). */
export function isForm(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === formType;
}

/** The form's fields; throws {@link FormError} for another type, an oversized or non-UTF-8 body. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (!isForm(req.headers['content-type'])) throw new FormError(`The body must be ${formType}.`);
  let raw: Buffer;
  try {
    raw = await readBody(req, maxFormBytes);
  } catch (error) {
    // readBody refuses an oversized body with a 413 problem; anything else is a lost client.
    if (error instanceof ProblemError) throw new FormError(`The body is larger than ${maxFormBytes} bytes.`);
    throw error;
  }
  try {
    return new URLSearchParams(strictUtf8.decode(raw));
  } catch {
    throw new FormError('The body is not valid UTF-8.');
  }
}

/** A parameter sent more than once, if any (RFC 6749 §3.1: such a request is invalid). */
export function repeatedParameter(params: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** A parameter's value; empty counts as absent (RFC 6749 §3.1). */
export function parameter(params: URLSearchParams, name: string): string | null {
  const value = params.get(name);
  return value === '' ? null : value;
}
