/** The TLS trust of every connection the harness opens: Node's roots, plus `--ca` / `http.ca`. */
import tls from 'node:tls';

/** TLS contexts that trust the system's roots and one CA more, by that CA's PEM. */
const contexts = new Map<string, tls.SecureContext>();

/**
 * A TLS context trusting the system's roots and `ca`, made once per CA: given `ca` alone,
 * every new connection parsed the ~140 root certificates again (0.8 s of CPU in a run over
 * HTTPS, a quarter of it). The client's pools and the raw connections of the byte-level
 * checks share it.
 *
 * @example
 * ```ts
 * const socket = connect({ host, port, secureContext: trusting(caPem) });
 * ```
 */
export function trusting(ca: string): tls.SecureContext {
  let context = contexts.get(ca);
  if (context === undefined) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    // A few at most: a process that meets many CAs (a test suite) keeps the latest.
    if (contexts.size >= 8) contexts.delete(contexts.keys().next().value!);
    contexts.set(ca, context);
  }
  return context;
}
