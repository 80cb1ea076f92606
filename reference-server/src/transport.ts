/**
 * HTTPS only (conventions §5.11; RFC 6797): with `tls: true` every HTTPS response carries
 * `Strict-Transport-Security`, and a plain-HTTP listener answers every request with a
 * permanent redirect to the same path over HTTPS, never with data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reasonPhrase } from './problem.js';

/**
 * One year, the customary value; `max-age` is the one required directive (RFC 6797
 * §6.1.1). No `includeSubDomains`: an IP address has no subdomains.
 */
export const hstsValue = 'max-age=31536000';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Adds Strict-Transport-Security to every response of `listener`. Set before the app
 * writes: Node merges it into the app's `writeHead`. Only for HTTPS listeners, since
 * RFC 6797 §7.2 forbids it over plain HTTP. Without `onErrors` (fault `missing-hsts`), a
 * 4xx or 5xx goes without it, as nginx's `add_header` without `always` leaves them.
 */
export function withHsts(listener: Listener, onErrors = true): Listener {
  return (req, res) => {
    res.setHeader('Strict-Transport-Security', hstsValue);
    if (!onErrors) {
      // end() without writeHead calls writeHead too (its implicit header).
      const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        if (status >= 400) res.removeHeader('Strict-Transport-Security');
        return writeHead(status, ...rest);
      }) as ServerResponse['writeHead'];
    }
    listener(req, res);
  };
}

/**
 * A listener that answers everything with 308 to `https://127.0.0.1:<httpsPort>` and the
 * same path and query. 308, not 301: a client must repeat a POST as a POST (RFC 9110
 * §15.4.9). The body is empty, and nothing of the request reaches the API.
 */
export function redirectToHttps(httpsPort: number): Listener {
  return (req, res) => {
    // Only an origin-form target is kept; anything else (absolute or asterisk form) goes to /.
    const target = req.url?.startsWith('/') === true ? req.url : '/';
    res.writeHead(308, reasonPhrase(308), {
      Location: `https://127.0.0.1:${httpsPort}${target}`,
      'Content-Length': '0',
      // Ports change from run to run: no client should remember this redirect.
      'Cache-Control': 'no-store',
    });
    res.end();
    // The request body, if any, is never read: drop it.
    req.resume();
  };
}
