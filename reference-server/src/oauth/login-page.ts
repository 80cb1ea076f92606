/**
 * The login page of the authorization endpoint: one form, posting back to
 * `/oauth/authorize` with the pending request's id, a username and a password. Every
 * interpolated value is escaped; the page loads nothing from anywhere.
 */
import type { Reply } from '../respond.js';

/** HTML-escapes text for element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface LoginPage {
  /** The pending request's opaque id (the form's hidden `request`). */
  readonly request: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** Shown above the form after a failed attempt. */
  readonly error?: string;
}

/** Headers of the page: never stored, never framed, no scripts or outside resources. */
const pageHeaders = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
} as const;

/** The page, with `status` 200 (first showing) or 401 (a wrong login). */
export function loginPage(page: LoginPage, status: 200 | 401): Reply {
  const error = page.error === undefined ? '' : `<p role="alert">${escapeHtml(page.error)}</p>`;
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Sign in - restprobe reference server</title></head><body>',
    '<h1>Sign in</h1>',
    error,
    `<p>The client <strong>${escapeHtml(page.clientId)}</strong> asks for: ${escapeHtml(page.scopes.join(' '))}</p>`,
    '<form method="post" action="/oauth/authorize">',
    `<input type="hidden" name="request" value="${escapeHtml(page.request)}">`,
    '<p><label>Username <input name="username" autocomplete="username" required></label></p>',
    '<p><label>Password <input type="password" name="password" autocomplete="current-password" required></label></p>',
    '<p><button type="submit">Sign in</button></p>',
    '</form></body></html>',
  ].join('\n');
  return { status, headers: pageHeaders, content: { type: 'text/html; charset=utf-8', text: html } };
}
