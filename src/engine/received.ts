/**
 * Every answer the target gave a run's checks, kept for the checks that judge answers after
 * the fact (`schedule: 'review'`: the OpenAPI document section holds each one to what the
 * document promises). Kept only when such a check is selected: a run without one pays nothing.
 */
import type { Guard } from '../http/guards.js';
import type { ReceivedExchange } from '../model/context.js';

/**
 * Request bodies longer than this are not kept (the check that sent it had all of it): a cut
 * body would escape the redaction of its secret-named members, which reads the whole JSON.
 */
const requestBodyLimit = 256 * 1024;

export class ReceivedLog {
  readonly exchanges: ReceivedExchange[] = [];

  /**
   * Keeps each answer `owner`'s requests get, as the check got it: outside the polite
   * client, so an attempt it retried (a 429, a 503) is not taken for the API's answer.
   *
   * @example
   * ```ts
   * const send = guard(client.send.bind(client), [politely(pacer, options, note), log.guard('END-get-item-200 [projects]')]);
   * ```
   */
  guard(owner: string): Guard {
    return (next) => (req) => {
      const started = performance.now();
      return next(req).then((res) => {
        const body = res.body;
        let text: string | undefined;
        const requestBody = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
        this.exchanges.push({
          method: req.method,
          url: req.url,
          requestHeaders: req.headers,
          requestBody: requestBody !== undefined && requestBody.length > requestBodyLimit ? `(a body of ${requestBody.length} characters, not kept)` : requestBody,
          // Decoded only when a review check reads it.
          response: {
            status: res.status,
            rawHeaders: res.headers,
            get text() {
              text ??= body.toString('utf8');
              return text;
            },
          },
          durationMs: Math.round(performance.now() - started),
          sentBy: owner,
        });
        return res;
      });
    };
  }
}
