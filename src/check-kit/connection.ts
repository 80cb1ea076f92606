/**
 * What a server sends between responses. A response to HEAD, a 204 and a 304 end after
 * their header section (RFC 9110 §6.4.1), so a parser never reads content after them:
 * bytes a server sends there stay on the connection, where they break the next exchange
 * (or the idle connection). Only a connection of its own shows them.
 */
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { CheckFailure } from '../model/check.js';
import type { CheckContext, HttpResponse, RequestSpec } from '../model/context.js';
import { isRestprobeError } from '../errors.js';
import { credentialHeaders, currentVersionHeaders, targetOrigins } from '../http/session.js';
import { trusting } from '../http/trust.js';
import { describe } from './expect.js';

/** A response that must have no content, and what followed it on its connection. */
export interface NoContentExchange {
  readonly res: HttpResponse;
  /** What shows bytes after the response's header section; undefined when nothing does. */
  readonly trailing: string | undefined;
}

/**
 * Sends `spec` on a connection of its own, then `follow` (any harmless request) on the
 * same connection, and reports whether bytes followed the first response.
 *
 * HEAD is different: the HTTP client closes its connection after every HEAD response
 * (so as to survive servers that send a body there), so it never sees such bytes. A HEAD
 * is therefore sent once more on a raw connection that asks the server to close it, and
 * whatever arrives after the header section is what a keep-alive client would have
 * misread. Through `--proxy` that second look is skipped, with a note.
 *
 * @example
 * ```ts
 * const head = await sendExpectingNoContent(ctx, { method: 'HEAD', url }, { method: 'GET', url });
 * expectNoContent(head, 'the HEAD response');
 * ```
 */
export async function sendExpectingNoContent(ctx: CheckContext, spec: RequestSpec, follow: RequestSpec): Promise<NoContentExchange> {
  if (spec.method === 'HEAD') {
    const res = await ctx.http.send(spec);
    return { res, trailing: await bytesAfterHead(ctx, res.url) };
  }
  const http = ctx.dedicatedHttp();
  const res = await http.send(spec);
  let broken: string | undefined;
  try {
    await http.send(follow);
  } catch (err) {
    // The stray bytes were read as the next response: the exchange broke mid-way.
    if (!isRestprobeError(err, 'ERR_PROTOCOL')) throw err;
    broken = err.message;
  }
  return { res, trailing: http.protocolErrors[0] ?? broken };
}

/** Fails when the response carried content, or bytes followed its header section on the connection. */
export function expectNoContent(x: NoContentExchange, what: string): void {
  const { res, trailing } = x;
  if (res.text.length > 0) {
    throw new CheckFailure(`${describe(res)}: ${what} carried ${res.text.length} bytes of content, expected none`, 'no content', `${res.text.length} bytes`, res.exchangeIndex);
  }
  if (trailing !== undefined) {
    throw new CheckFailure(
      `${describe(res)}: bytes followed ${what}'s header section on the connection (${trailing}), so it carried content; expected none, which also keeps the connection usable`,
      'no content after the header section',
      trailing,
      res.exchangeIndex,
    );
  }
}

/** Bytes read past the header section are cut at this many for the message. */
const shownBytes = 60;
/** More than this is never read: it is content either way. */
const readCap = 64 * 1024;

/**
 * Sends `HEAD url` with `Connection: close` on a raw connection and returns a description
 * of the bytes that came after the final header section, or undefined when none did.
 */
async function bytesAfterHead(ctx: CheckContext, url: string): Promise<string | undefined> {
  if (ctx.profile.http.proxy !== undefined) {
    ctx.note('through --proxy the bytes after a HEAD response are not looked for (a raw connection would bypass the proxy)');
    return undefined;
  }
  const target = new URL(url);
  const credentials = targetOrigins(ctx.profile).has(target.origin) ? { ...currentVersionHeaders(ctx.profile), ...credentialHeaders(ctx.profile) } : {};
  const lines = [`HEAD ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, 'Accept: application/json', ...Object.entries(credentials).map(([k, v]) => `${k}: ${v}`), 'Connection: close'];
  const { received, keptOpenMs } = await rawRoundTrip(target, `${lines.join('\r\n')}\r\n\r\n`, ctx.profile.http.timeoutMs, ctx.signal, ctx.profile.http.ca);
  if (keptOpenMs !== undefined) ctx.note(`HEAD ${target.pathname} on a raw connection: the server kept the connection open after its answer, though the request said Connection: close; the bytes after the header section were looked for ${keptOpenMs} ms`);
  const after = afterHeaderSections(received);
  if (after === undefined) {
    ctx.note(`HEAD ${target.pathname} on a raw connection: no complete header section came back, so the bytes after it could not be looked for`);
    return undefined;
  }
  if (after.length === 0) return undefined;
  const shown = after.toString('latin1').slice(0, shownBytes);
  return `${after.length >= readCap ? `at least ${readCap}` : after.length} bytes after a HEAD response: ${JSON.stringify(shown)}${after.length > shownBytes ? '…' : ''}`;
}

/** What follows the last header section of `data` (past any 1xx interim responses); undefined when incomplete. */
function afterHeaderSections(data: Buffer): Buffer | undefined {
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return undefined;
    const interim = /^HTTP\/1\.[01] 1\d\d /.test(rest.subarray(0, 16).toString('latin1'));
    rest = rest.subarray(end + 4);
    if (!interim) return rest;
  }
}

/**
 * A server that keeps the connection open despite `Connection: close` is given this long
 * after the header section to send more: a body written after headers flushed early (the
 * content computed meanwhile) comes that late. A server that closes, as it must, costs nothing.
 */
const watchAfterHeadersMs = 2_000;

/**
 * Writes `request` and reads until the server closes, `readCap` bytes came, a while passed
 * after a header section, the timeout passes or the signal aborts. `keptOpenMs`: how long
 * the connection was watched after the header section, when the server did not close it.
 */
function rawRoundTrip(target: URL, request: string, timeoutMs: number, signal: AbortSignal, ca: string | undefined): Promise<{ received: Buffer; keptOpenMs?: number }> {
  return new Promise((resolve) => {
    const https = target.protocol === 'https:';
    const port = Number(target.port || (https ? 443 : 80));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // The same trust as the client's: Node's CAs, plus `--ca` / `http.ca`.
    const socket: Socket = https ? connectTls({ host, port, ...(isIP(host) === 0 && { servername: host }), ...(ca !== undefined && { secureContext: trusting(ca) }) }) : connectTcp({ host, port });
    const chunks: Buffer[] = [];
    let size = 0;
    let watch: NodeJS.Timeout | undefined;
    const done = (keptOpenMs?: number): void => {
      clearTimeout(timer);
      clearTimeout(watch);
      signal.removeEventListener('abort', ended);
      socket.destroy();
      resolve({ received: Buffer.concat(chunks), ...(keptOpenMs !== undefined && { keptOpenMs }) });
    };
    const ended = (): void => done();
    const timer = setTimeout(ended, timeoutMs);
    if (signal.aborted) return ended();
    signal.addEventListener('abort', ended);
    socket.on(https ? 'secureConnect' : 'connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const after = afterHeaderSections(Buffer.concat(chunks));
      // Bytes after the header section are content either way: no need to wait for more.
      if (size >= readCap || (after !== undefined && after.length > 0)) return done();
      if (watch === undefined && after !== undefined) {
        const watchMs = Math.min(watchAfterHeadersMs, timeoutMs);
        watch = setTimeout(() => done(watchMs), watchMs);
      }
    });
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', ended);
  });
}
