/**
 * The fault catalogue: named, deliberate defects the reference server can carry.
 *
 * Each fault breaks exactly one convention, so that every harness check can be shown to
 * fail on at least one of them. The server consults the set of active faults at the one
 * place each fault bends behaviour; search the sources for the fault's name to find it.
 */

/** What a catalogue entry must hold; the entries below are checked against it. */
export interface FaultDefinition {
  /** Stable kebab-case name, used with `restprobe serve --fault NAME`. */
  readonly name: string;
  /** One line: what the server does wrong while the fault is active. */
  readonly description: string;
  /**
   * Ids of the harness checks that must fail while this fault is active. The fault matrix
   * compares every fault with the clean server's response shapes (as a release is compared
   * with the last good one), so a fault that changes a status code or a field of the probed
   * responses (a breaking change within v2, §9.4) names VER-compatible-within-major too.
   */
  readonly detects: readonly string[];
  /** Set when the fault only shows over HTTPS (`serve --tls`): a run over plain HTTP cannot see it. */
  readonly overTls?: true;
}

/**
 * The catalogue with its literal types kept, so that {@link FaultName} can be derived
 * from it. Add a fault here and its name joins the union.
 */
const definitions = [
  {
    name: 'success-as-text-plain',
    description: 'Successful responses carry their JSON labelled Content-Type: text/plain.',
    detects: ['RES-json-content-type', 'DOC-media-type-documented'],
  },
  {
    name: 'nested-listing-unscoped',
    description: "A project's task listing shows every project's tasks, not only its own.",
    detects: ['RES-nested-listing'],
  },
  {
    name: 'task-only-nested',
    description: 'A task is listed under its project, but its top-level path (/v2/tasks/{id}) answers 404.',
    detects: ['RES-nested-listing', 'RES-links-resolve'],
  },
  {
    name: 'collection-unwrapped',
    description: 'GET on a collection answers a bare JSON array instead of a {data, next_cursor} page.',
    detects: ['END-get-collection-200', 'VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'item-get-204',
    description: 'GET on an existing item answers 204 No Content instead of 200 with its representation.',
    detects: ['END-get-item-200', 'VER-compatible-within-major', 'DOC-status-documented'],
  },
  {
    name: 'head-drops-headers',
    description: 'HEAD answers without the Content-Type and Content-Length that GET sends.',
    detects: ['END-head-headers-match'],
  },
  {
    name: 'head-with-body',
    description: "A HEAD response on an item is followed by the item's representation on the connection.",
    detects: ['END-head-matches-get'],
  },
  {
    name: 'options-without-allow',
    description: 'OPTIONS answers 204 without Allow, Accept-Post or Accept-Patch.',
    detects: ['END-options-allow'],
  },
  {
    name: 'options-without-accept-patch',
    description: 'OPTIONS on an item lists PATCH in Allow but sends no Accept-Patch.',
    detects: ['END-options-accept-patch'],
  },
  {
    name: 'post-200-no-location',
    description: 'POST to a collection answers 200 instead of 201 and sends no Location.',
    detects: ['END-post-201-location', 'VER-compatible-within-major', 'DOC-status-documented'],
  },
  {
    name: 'location-points-to-collection',
    description: "POST's Location names the collection instead of the new item.",
    detects: ['END-post-location-resolves'],
  },
  {
    name: 'client-chosen-id',
    description: 'POST adopts the id the client sent in the body instead of choosing one.',
    detects: ['END-post-server-chooses-id'],
  },
  {
    name: 'client-uuid-id-adopted',
    description: 'POST adopts a client-sent id that is a UUID, as its own are, refusing other ids with 422 and taken ones with 409.',
    detects: ['END-post-server-chooses-id'],
  },
  {
    name: 'client-id-conflict-500',
    description: 'POST with the id of an existing item in its body crashes with 500 (a duplicate key).',
    detects: ['END-post-server-chooses-id', 'DOC-status-documented'],
  },
  {
    name: 'create-returns-id-only',
    description: 'POST answers 201 with only {id} instead of the created resource.',
    detects: ['END-create-returns-resource', 'VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'update-returns-previous',
    description: 'PUT and PATCH apply the write but answer with the representation from before it.',
    detects: ['END-update-returns-resource'],
  },
  {
    name: 'update-echoes-input',
    description: 'PUT and PATCH apply the write but answer with the request body echoed back (no id, no other fields).',
    detects: ['END-update-returns-resource', 'DOC-body-matches-schema'],
  },
  {
    name: 'idempotency-key-ignored',
    description: 'POST ignores Idempotency-Key: a retried create with the same key makes a second resource.',
    detects: ['END-idempotency-key-replay'],
  },
  {
    name: 'idempotency-replay-creates',
    description: 'A POST retried with its Idempotency-Key replays the stored answer but is handled again: a second resource.',
    detects: ['END-idempotency-key-replay'],
  },
  {
    name: 'idempotency-key-reuse-accepted',
    description: 'POST with a stored Idempotency-Key but another body creates a new resource instead of 422.',
    detects: ['END-idempotency-key-mismatch'],
  },
  {
    name: 'put-merges',
    description: 'PUT keeps fields the body omits, as PATCH does, instead of resetting them.',
    detects: ['END-put-replaces'],
  },
  {
    name: 'put-bumps-revision',
    description: 'Every PUT increments a revision field, even when it changes nothing.',
    detects: ['END-put-idempotent'],
  },
  {
    name: 'put-missing-404',
    description: 'PUT to an unknown id answers 404 instead of creating the resource.',
    detects: ['END-put-creates-missing'],
  },
  {
    name: 'put-create-no-location',
    description: 'PUT that creates a missing resource answers 201 without Location.',
    detects: ['END-put-creates-missing'],
  },
  {
    name: 'patch-resets-unsent',
    description: 'PATCH resets the optional fields it did not name, as PUT does.',
    detects: ['END-patch-keeps-unsent'],
  },
  {
    name: 'delete-200-empty',
    description: 'DELETE answers 200 with an empty body instead of 204.',
    detects: ['END-delete-204', 'DOC-status-documented'],
  },
  {
    name: 'delete-204-with-body',
    description: "DELETE's 204 is followed by a JSON body on the connection.",
    detects: ['END-delete-204'],
  },
  {
    name: 'delete-soft',
    description: 'DELETE answers 204 but the item still answers GET with 200.',
    detects: ['END-delete-then-404'],
  },
  {
    name: 'delete-repeat-500',
    description: 'A second DELETE of the same id answers 500 instead of 404.',
    detects: ['END-delete-idempotent', 'DOC-status-documented'],
  },
  {
    name: 'method-not-allowed-without-allow',
    description: 'A method that a known path does not support answers 405 without the Allow header RFC 9110 requires of it.',
    detects: ['END-method-not-allowed-405'],
  },
  {
    name: 'allow-lists-refused-method',
    description: "A 405's Allow lists every method, the refused one included (OPTIONS still tells the truth).",
    detects: ['END-method-not-allowed-405'],
  },
  {
    name: 'get-counts-views',
    description: 'Every GET or HEAD of an item increments a views field, so reading changes state.',
    detects: ['END-safe-methods-no-change'],
  },
  {
    name: 'head-collection-creates',
    description: "A HEAD of a project listing filtered by label creates a placeholder project with that label.",
    detects: ['END-safe-methods-no-change'],
  },
  {
    name: 'listing-read-creates',
    description: 'Every GET of the project listing without a query creates an unlabelled sample project.',
    detects: ['END-safe-methods-no-change'],
  },
  {
    name: 'errors-as-plain-json',
    description: 'Error bodies are labelled application/json instead of application/problem+json.',
    // The 429 too: a rate limiter's answer is often another library's, so its own finding.
    detects: ['ERR-problem-json-content-type', 'ERR-unknown-path-404', 'ERR-unknown-id-404', 'LIM-429-problem-details', 'DOC-media-type-documented'],
  },
  {
    name: 'problem-without-detail',
    description: 'Error bodies lack the title and detail members.',
    detects: ['ERR-problem-members', 'VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'problem-status-always-400',
    description: "The problem body's status member is always 400, whatever the HTTP status.",
    detects: ['ERR-problem-status-matches', 'LIM-429-problem-details'],
  },
  {
    name: 'validation-errors-without-field',
    description: 'The errors[] entries of a 422 carry a message but no field.',
    detects: ['ERR-validation-errors-field', 'VER-compatible-within-major', 'DOC-body-matches-schema', 'DOC-invalid-bodies-refused'],
  },
  {
    name: 'validation-error-as-200',
    description: 'A body that fails validation answers 200 with the problem body instead of 422.',
    detects: ['ERR-no-error-body-on-2xx', 'ERR-validation-422', 'ERR-bad-input-no-5xx', 'VER-compatible-within-major', 'DOC-media-type-documented', 'DOC-status-documented', 'DOC-invalid-bodies-refused'],
  },
  {
    name: 'unknown-id-200-null',
    description: 'GET of an unknown id answers 200 with a null body instead of 404.',
    detects: ['ERR-unknown-id-404', 'END-delete-then-404', 'VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'not-found-as-200-envelope',
    description: 'GET of an unknown id answers 200 with {"statusCode": 404, "message": "Not Found"} instead of 404.',
    detects: ['ERR-no-error-body-on-2xx', 'ERR-unknown-id-404', 'END-delete-then-404', 'VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'unknown-path-html',
    description: 'An unknown path answers 404 with an HTML page instead of a problem body.',
    detects: ['ERR-unknown-path-404', 'ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'],
  },
  {
    name: 'wrong-type-500',
    description: 'A project name that is not a string reaches the handler unchecked, which crashes with 500.',
    detects: ['ERR-bad-input-no-5xx', 'ERR-validation-422', 'ERR-validation-errors-field', 'VER-compatible-within-major', 'DOC-status-documented', 'DOC-invalid-bodies-refused'],
  },
  {
    name: 'error-leaks-stack',
    description: "The 400 for a malformed JSON body carries the parser's stack trace in its detail.",
    detects: ['ERR-no-stack-trace-or-html'],
  },
  {
    name: 'malformed-json-500',
    description: 'A malformed JSON body answers 500 instead of 400.',
    detects: ['ERR-malformed-json-400', 'ERR-bad-input-no-5xx', 'DOC-status-documented'],
  },
  {
    name: 'bad-limit-500',
    description: 'A non-numeric limit query parameter answers 500 instead of 400.',
    detects: ['ERR-bad-input-no-5xx', 'LIM-limit-invalid-400', 'DOC-status-documented'],
  },
  {
    name: 'accept-ignored',
    description: 'An unsupported Accept is ignored and answered 200 application/json instead of 406.',
    detects: ['ERR-unsupported-accept-406'],
  },
  {
    name: 'content-type-ignored',
    description: 'Request bodies are parsed as JSON whatever their Content-Type says, instead of 415.',
    detects: ['ERR-unsupported-content-type-415'],
  },
  {
    name: 'offset-cursor',
    description: 'The cursor encodes a plain offset, so inserts and deletes during a walk skip or repeat items.',
    detects: ['END-pagination-stable-under-writes', 'END-cursor-tamper-evident'],
  },
  {
    name: 'limit-uncapped',
    description: 'A limit above the maximum is honoured: a page can hold any number of items.',
    detects: ['LIM-limit-capped'],
  },
  {
    name: 'default-page-unbounded',
    description: 'Without a limit, a collection answers every item in one page.',
    detects: ['LIM-default-page-bounded'],
  },
  {
    name: 'default-page-truncated',
    description: 'Without a limit, the first page is the last (next_cursor null, later offset pages empty): the rest is dropped.',
    detects: ['LIM-default-page-bounded'],
  },
  {
    name: 'limit-zero-accepted',
    description: 'A limit of 0 or below is accepted and answered with the default page.',
    detects: ['LIM-limit-invalid-400'],
  },
  {
    name: 'next-cursor-never-null',
    description: 'The last page still carries a next_cursor, which leads to an empty page that carries one too.',
    detects: ['END-pagination-terminates'],
  },
  {
    name: 'sort-ignored',
    description: 'The sort parameter is accepted but the order is always creation order.',
    detects: ['END-sort-honoured'],
  },
  {
    name: 'filter-ignored',
    description: 'Filter parameters are accepted but ignored.',
    detects: ['END-filter-matches'],
  },
  {
    name: 'status-filter-ignored',
    description: 'The status filter is accepted but not applied; the other filters work.',
    detects: ['END-filter-matches'],
  },
  {
    name: 'sort-without-tiebreaker',
    description: 'Ties on the sort field come in a random order and the cursor keys on the sort value alone, so ties are skipped.',
    detects: ['END-sort-ties-deterministic'],
  },
  {
    name: 'tampered-cursor-500',
    description: 'A tampered or garbage cursor crashes the listing with 500.',
    detects: ['END-cursor-tamper-400', 'ERR-bad-input-no-5xx', 'DOC-status-documented'],
  },
  {
    name: 'cursor-not-bound',
    description: 'A cursor issued for one filter or sort is accepted with another.',
    detects: ['END-cursor-tamper-evident'],
  },
  {
    name: 'cursor-overrides-filter',
    description: "A cursor carries the filters it was issued for, and they replace the request's own filters.",
    detects: ['END-cursor-tamper-400'],
  },
  {
    name: 'offset-overlap',
    description: 'Offset pages overlap by one item (the page starts at offset - 1).',
    detects: ['END-offset-pages-disjoint'],
  },
  {
    name: 'page-boundary-skip',
    description: 'Each page after the first starts one item late, so the first item after every page boundary is lost.',
    detects: ['END-pagination-complete-walk'],
  },
  {
    name: 'odd-page-boundary-skip',
    description: 'At an odd page size above 1, each page after the first starts one item late; even sizes work.',
    detects: ['END-pagination-complete-walk'],
  },
  {
    name: 'etag-missing',
    description: 'GET responses carry no ETag.',
    detects: ['END-etag-present'],
  },
  {
    name: 'etag-unstable',
    description: 'The ETag changes on every GET, even when the resource did not change.',
    detects: ['END-etag-stable'],
  },
  {
    name: 'etag-per-node',
    description: 'Each node salts the ETag with its own id, so nodes disagree on the same representation.',
    detects: ['CON-etag-same-across-nodes'],
  },
  {
    name: 'etag-stale-after-write',
    description: 'The ETag is computed once at create and never changes after a write.',
    detects: ['END-etag-changes-on-write'],
  },
  {
    name: 'if-none-match-ignored',
    description: 'If-None-Match is ignored: a matching tag still gets 200 with the body.',
    detects: ['END-if-none-match-304'],
  },
  {
    name: 'not-modified-with-body',
    description: 'A 304 carries the representation as a body.',
    detects: ['END-not-modified-no-body'],
  },
  {
    name: 'if-match-ignored',
    description: 'If-Match is ignored: a stale tag does not stop the write (lost update).',
    detects: ['END-if-match-412', 'END-if-match-delete-412'],
  },
  {
    name: 'if-match-accepts-any-issued',
    description: 'If-Match accepts any ETag the item ever had, not only its current one (lost update).',
    detects: ['END-if-match-412', 'END-if-match-delete-412'],
  },
  {
    name: 'if-match-ignored-on-delete',
    description: 'DELETE ignores If-Match, so a stale tag does not stop it; PUT and PATCH honour it.',
    detects: ['END-if-match-delete-412'],
  },
  {
    name: 'precondition-failed-but-applied',
    description: 'A stale If-Match gets 412, but the write is applied anyway.',
    detects: ['END-if-match-412', 'END-if-match-delete-412'],
  },
  {
    name: 'put-precondition-failed-but-applied',
    description: 'A PUT with a stale If-Match gets 412, but the replacement is applied anyway; PATCH and DELETE refuse it.',
    detects: ['END-if-match-412'],
  },
  {
    name: 'precondition-failed-bare',
    description: 'A failed If-Match gets a 412 with no body and no Content-Type, not a problem body.',
    detects: ['ERR-problem-json-content-type', 'ERR-problem-members', 'ERR-problem-status-matches'],
  },
  {
    name: 'if-match-always-412',
    description: 'Every If-Match fails, even the current ETag.',
    detects: ['END-if-match-applies'],
  },
  {
    name: 'cache-control-missing',
    description: 'GET responses carry no Cache-Control.',
    detects: ['LIM-cache-control-present'],
  },
  {
    name: 'cache-control-malformed',
    description: 'Cache-Control quotes its max-age (`private, max-age="60"`).',
    detects: ['LIM-cache-control-well-formed', 'DOC-required-headers'],
  },
  {
    name: 'cache-control-public',
    description: 'Credentialed GET responses are marked `public, max-age=60`.',
    detects: ['LIM-credentialed-not-public', 'DOC-required-headers'],
  },
  {
    name: 'vary-missing',
    description: 'Negotiated responses carry no Vary.',
    detects: ['END-vary-accept'],
  },
  {
    name: 'secret-cacheable',
    description: 'The response that shows a newly minted API key is cacheable (private, max-age=300) instead of no-store.',
    detects: ['LIM-no-store-secrets', 'EVT-secret-shown-once', 'DOC-required-headers'],
  },
  {
    name: 'api-key-in-query',
    description: 'An API key in the query string (api_key, apikey, key, access_token, token) is accepted.',
    detects: ['AUT-key-not-in-query'],
  },
  {
    name: 'api-key-in-camel-query',
    description: 'An API key in the query parameter apiKey is accepted; the lower-case names are not read.',
    detects: ['AUT-key-not-in-query'],
  },
  {
    name: 'unauthorized-without-challenge',
    description: 'Every 401 answer lacks its WWW-Authenticate challenge.',
    detects: ['AUT-missing-credentials-401'],
  },
  {
    name: 'forbidden-for-missing-credentials',
    description: 'A request without credentials gets 403 instead of 401.',
    detects: ['AUT-missing-credentials-401'],
  },
  {
    name: 'unauthorized-for-missing-scope',
    description: 'A valid credential without the needed scope gets 401 instead of 403.',
    detects: ['AUT-scope-403'],
  },
  {
    name: 'scope-not-enforced-on-delete',
    description: 'DELETE skips the scope check: a credential without write scope may delete.',
    detects: ['AUT-scope-403'],
  },
  {
    name: 'forbidden-write-applied',
    description: 'A write with a credential that lacks its scope is applied, then answered 403: the scope is checked after the handler ran.',
    detects: ['AUT-scope-403'],
  },
  {
    name: 'revoked-key-accepted',
    description: 'A deleted (revoked) minted API key still authenticates.',
    detects: ['AUT-revoked-key-401'],
  },
  {
    name: 'minted-secret-readable',
    description: 'GET of a minted API key shows its secret again.',
    detects: ['AUT-minted-secret-once'],
  },
  {
    name: 'session-cookie-not-httponly',
    description: 'The session cookie is set without HttpOnly.',
    detects: ['AUT-cookie-attributes'],
  },
  {
    name: 'logout-keeps-session',
    description: 'Logout answers 204 but keeps the server record, so the session cookie still works.',
    detects: ['AUT-logout-ends-session'],
  },
  {
    name: 'missing-hsts',
    description: "HTTPS error responses (4xx, 5xx) carry no Strict-Transport-Security, as nginx's add_header without always.",
    detects: ['AUT-hsts'],
    overTls: true,
  },
  {
    name: 'plain-http-serves-data',
    description: 'The plain-HTTP listener serves the API itself instead of redirecting to HTTPS.',
    detects: ['AUT-https-redirect'],
    overTls: true,
  },
  {
    name: 'credential-in-location',
    description: "POST's Location carries the presented API key in its query (?api_key=…).",
    detects: ['AUT-no-credential-in-url'],
  },
  {
    name: 'garbage-key-accepted',
    description: 'Any X-API-Key value of 40 or more characters is accepted, as if it were the primary key.',
    detects: ['AUT-invalid-credentials-401'],
  },
  {
    name: 'jwt-alg-none-accepted',
    description: 'The API accepts an unsigned access token (alg "none").',
    detects: ['AUT-jwt-alg-none-refused'],
  },
  {
    name: 'jwt-key-confusion',
    description: "The API verifies an HS256 token with the RSA public key's PEM as the HMAC secret.",
    detects: ['AUT-jwt-key-confusion-refused'],
  },
  {
    name: 'jwt-signature-unchecked',
    description: 'The API decodes access tokens without verifying their signature (claims are still checked).',
    detects: ['AUT-jwt-tampered-refused'],
  },
  {
    name: 'jwt-exp-unchecked',
    description: 'The API accepts expired access tokens.',
    detects: ['AUT-jwt-expired-refused'],
  },
  {
    name: 'jwt-nbf-unchecked',
    description: 'The API accepts access tokens whose nbf is in the future.',
    detects: ['AUT-jwt-nbf-future-refused'],
  },
  {
    name: 'jwt-iss-unchecked',
    description: 'The API accepts access tokens from any issuer.',
    detects: ['AUT-jwt-wrong-iss-refused'],
  },
  {
    name: 'jwt-aud-unchecked',
    description: 'The API accepts access tokens issued for any audience.',
    detects: ['AUT-jwt-wrong-aud-refused'],
  },
  {
    name: 'jwt-scope-ignored',
    description: "The API ignores an access token's scope claim: every token may do everything.",
    detects: ['AUT-jwt-scope-403'],
  },
  {
    name: 'token-lifetime-24h',
    description: 'Access tokens live 24 hours (expires_in and exp) instead of 10 minutes.',
    detects: ['AUT-client-credentials-token', 'AUT-jwt-lifetime'],
  },
  {
    name: 'jwt-pii-in-claims',
    description: "Access tokens carry the user's email address and name.",
    detects: ['AUT-jwt-no-personal-data'],
  },
  {
    name: 'jwt-no-typ',
    description: 'Access token headers carry no typ (RFC 9068 asks for at+jwt).',
    detects: ['AUT-jwt-format'],
  },
  {
    name: 'jwt-claims-missing',
    description: 'Access tokens carry no nbf and no aud claim.',
    detects: ['AUT-jwt-claims'],
  },
  {
    name: 'token-response-cacheable',
    description: 'Token endpoint responses carry Cache-Control: max-age=300 and no Pragma.',
    detects: ['AUT-token-no-store'],
  },
  {
    name: 'client-secret-unchecked',
    description: 'The token endpoint accepts any client secret for a known client id.',
    detects: ['AUT-token-invalid-client'],
  },
  {
    name: 'unknown-grant-500',
    description: 'The token endpoint answers an unknown grant type with 500.',
    detects: ['AUT-token-unsupported-grant'],
  },
  {
    name: 'password-grant-accepted',
    description: "The token endpoint issues tokens for grant_type=password with the test user's login.",
    detects: ['AUT-password-grant-refused'],
  },
  {
    name: 'implicit-flow-accepted',
    description: 'The authorization endpoint serves response_type=token: a login, then a token in the fragment.',
    detects: ['AUT-implicit-refused'],
  },
  {
    name: 'pkce-optional',
    description: 'An authorization request without code_challenge gets a code, redeemable without a verifier.',
    detects: ['AUT-pkce-required'],
  },
  {
    name: 'pkce-plain-accepted',
    description: 'The authorization endpoint accepts code_challenge_method=plain.',
    detects: ['AUT-pkce-plain-refused'],
  },
  {
    name: 'pkce-verifier-unchecked',
    description: 'The token endpoint redeems a code without comparing the code_verifier to its challenge.',
    detects: ['AUT-pkce-verifier-checked'],
  },
  {
    name: 'code-reusable',
    description: 'An authorization code can be redeemed more than once.',
    detects: ['AUT-code-single-use'],
  },
  {
    name: 'state-dropped',
    description: 'The redirect after the login carries no state parameter.',
    detects: ['AUT-state-echoed'],
  },
  {
    name: 'redirect-uri-prefix-match',
    description: 'Any redirect_uri that starts with the registered one is accepted and redirected to.',
    detects: ['AUT-redirect-uri-exact'],
  },
  {
    name: 'redirect-uri-extra-query',
    description: 'The registered redirect_uri with any query parameters added is accepted and redirected to.',
    detects: ['AUT-redirect-uri-exact'],
  },
  {
    name: 'refresh-not-rotated',
    description: 'A refresh returns no new refresh token, and the old one stays valid.',
    detects: ['STA-refresh-rotates'],
  },
  {
    name: 'old-refresh-still-valid',
    description: 'A refresh issues a new refresh token, but the old one keeps working.',
    detects: ['STA-refresh-old-refused'],
  },
  {
    name: 'refresh-reuse-no-revoke',
    description: 'A rotated-out refresh token is refused, but its family is not revoked.',
    detects: ['STA-refresh-reuse-revokes-family'],
  },
  {
    name: 'rate-limit-absent',
    description: 'No request is ever rate limited: a burst of any size is served, and no RateLimit fields are sent.',
    detects: ['LIM-rate-limit-enforced'],
  },
  {
    name: 'retry-after-missing',
    description: 'A 429 carries no Retry-After (nor Retry-After-Ms).',
    detects: ['LIM-retry-after-valid'],
  },
  {
    name: 'retry-after-too-short',
    description: 'After a 429 the key stays limited for another 750 ms, but Retry-After (and Retry-After-Ms) say 0.',
    detects: ['LIM-retry-after-truthful'],
  },
  {
    name: 'retry-after-too-long',
    description: "A 429's Retry-After says 3 s more than the real wait (its Retry-After-Ms is right).",
    detects: ['LIM-retry-after-truthful'],
  },
  {
    name: 'rate-limit-per-node',
    description: 'Each node keeps its own rate-limit counters, so N nodes serve N times the limit.',
    detects: ['LIM-rate-limit-shared-across-nodes'],
  },
  {
    name: 'rate-limit-per-worker',
    description: 'Four worker processes behind one port each count in memory, taking requests in turn: a burst is served 4 times the limit.',
    detects: ['LIM-rate-limit-enforced'],
  },
  {
    name: 'rate-limit-global-counter',
    description: "All API keys of a quota tier share one counter, so one client's burst limits every other client.",
    detects: ['LIM-rate-limit-per-client'],
  },
  {
    name: 'rate-limited-plain-text',
    description: 'A 429 answers text/plain "Too Many Requests" instead of a problem+json body.',
    detects: ['LIM-429-problem-details', 'DOC-media-type-documented'],
  },
  {
    name: 'rate-limit-never-recovers',
    description: 'A key that was rate limited is never served again, whatever Retry-After and RateLimit promise.',
    detects: ['LIM-retry-after-truthful', 'LIM-ratelimit-headers'],
  },
  {
    name: 'ratelimit-fields-wrong',
    description: 'RateLimit reports the whole quota remaining on every response, the 429 included.',
    detects: ['LIM-ratelimit-headers'],
  },
  {
    name: 'overload-retry-after-fractional',
    description: 'The overload 503 gives Retry-After in fractional seconds (0.10) instead of delta-seconds or a date.',
    detects: ['LIM-503-retry-after'],
  },
  {
    name: 'webhook-text-plain',
    description: 'Webhook deliveries carry their JSON labelled Content-Type: text/plain.',
    detects: ['EVT-delivery-post-json'],
  },
  {
    name: 'webhook-no-event-on-delete',
    description: 'Deleting an item sends no webhook event; creates and updates still do.',
    detects: ['EVT-events-for-actions'],
  },
  {
    name: 'webhook-secret-readable',
    description: 'GET of a webhook subscription shows its signing secret again.',
    detects: ['EVT-secret-shown-once'],
  },
  {
    name: 'webhook-unsigned',
    description: 'Webhook deliveries carry no webhook-signature header.',
    detects: ['EVT-signature-valid'],
  },
  {
    name: 'webhook-signs-reserialised-json',
    description: 'The webhook signature is computed over compact re-serialised JSON, not the bytes sent.',
    detects: ['EVT-signature-valid'],
  },
  {
    name: 'webhook-no-timestamp',
    description: 'Webhook deliveries carry no webhook-timestamp header.',
    detects: ['EVT-timestamp-fresh'],
  },
  {
    name: 'webhook-no-id',
    description: 'Webhook deliveries carry no webhook-id header.',
    detects: ['EVT-event-id'],
  },
  {
    name: 'webhook-same-id',
    description: 'Every event to a subscription carries the same webhook-id, so a receiver that dedupes drops all but the first.',
    detects: ['EVT-event-id'],
  },
  {
    name: 'webhook-no-retry',
    description: 'A webhook delivery is attempted once: a 500 or a timeout is never retried.',
    detects: ['EVT-retry-after-500', 'EVT-retry-after-timeout'],
  },
  {
    name: 'webhook-id-per-item',
    description: 'A webhook-id is made from the item\'s id, so the create, update and delete events of one item share it.',
    detects: ['EVT-event-id'],
  },
  {
    name: 'webhook-new-id-on-retry',
    description: 'Each retry of a webhook delivery carries a new webhook-id.',
    detects: ['EVT-retry-after-500', 'EVT-retry-after-timeout'],
  },
  {
    name: 'webhook-body-changed-on-retry',
    description: 'Each retry of a webhook delivery adds an attempt counter to its body.',
    detects: ['EVT-retry-after-500', 'EVT-retry-after-timeout'],
  },
  {
    name: 'webhook-retry-keeps-timestamp',
    description: 'Each retry of a webhook delivery comes 2.1 s later with the first attempt\'s webhook-timestamp and signature.',
    detects: ['EVT-retry-after-500', 'EVT-retry-after-timeout'],
  },
  {
    name: 'webhook-unsubscribe-ignored',
    description: 'Deleting a webhook subscription answers 204 but events are still delivered to it.',
    detects: ['EVT-unsubscribe-stops'],
  },
  {
    name: 'deprecation-on-current',
    description: 'The current version (/v2) also sends the Deprecation, Sunset and deprecation Link of /v1.',
    detects: ['VER-current-version'],
  },
  {
    name: 'deprecation-date-malformed',
    description: 'Deprecation on /v1 is an HTTP-date (the pre-RFC 9745 drafts) instead of an sf-date such as @1735689600.',
    detects: ['VER-deprecation-headers'],
  },
  {
    name: 'sunset-before-deprecation',
    description: "The Sunset of /v1 is a year before its Deprecation date.",
    detects: ['VER-deprecation-headers'],
  },
  {
    name: 'deprecation-link-dead',
    description: 'The rel="deprecation" Link of /v1 names a notice that answers 404.',
    detects: ['VER-deprecation-headers'],
  },
  {
    name: 'deprecated-version-gone',
    description: 'The deprecated /v1 answers 410 before its Sunset date, as if it were removed already.',
    detects: ['VER-deprecation-headers', 'DOC-status-documented'],
  },
  {
    name: 'version-query-accepted',
    description: 'Besides its URL, ?v=1 chooses the deprecated version too: a second, discouraged version scheme.',
    detects: ['VER-no-query-scheme'],
  },
  {
    name: 'removed-version-500',
    description: 'The removed /v0 answers 500 instead of 404 or 410.',
    detects: ['VER-removed-version-gone'],
  },
  {
    name: 'rename-dropped-early',
    description: "The deprecated /v1 drops a project's old field title (renamed name) before the next version.",
    detects: ['VER-rename-transition'],
  },
  {
    name: 'unknown-field-refused',
    description: 'A create with a field the resource does not know answers 422 instead of ignoring it.',
    detects: ['VER-tolerant-reader'],
  },
  {
    name: 'link-id-unset',
    description: "A task's _links.project names /v2/projects/undefined, which answers 400 as an item id must be a UUID.",
    // The undocumented 400 of the GET on it is the document check's finding too.
    detects: ['RES-links-resolve', 'DOC-status-documented'],
  },
  {
    name: 'link-dead',
    description: "A task's _links.project names /v2/project/{id}, a path that answers 404.",
    // The dead path is also singular: the design check sees it too.
    detects: ['RES-links-resolve', 'RES-path-design'],
  },
  {
    name: 'link-open-action-missing',
    description: "Open actions are missing from _links: an open task's completion, an archived project's restoration.",
    detects: ['STA-links-open-actions'],
  },
  {
    name: 'link-closed-action-shown',
    description: "Taken actions stay in _links: a completed task's completion, a restored project's restoration.",
    detects: ['STA-links-open-actions'],
  },
  {
    name: 'action-on-get',
    description: 'GET on an action takes it: a task\'s completion completes it, a project\'s restoration restores it.',
    detects: ['STA-links-open-actions', 'DOC-status-documented'],
  },
  {
    name: 'verb-in-path',
    description: "A task's completion action is linked and served at a verb, /v2/tasks/{id}/complete.",
    detects: ['RES-path-design'],
  },
  {
    name: 'field-retyped',
    description: 'Every representation sends updated_at as epoch milliseconds (a number), no longer an RFC 3339 string.',
    // A breaking change within v2, seen against the clean server's shapes (test/support/clean-shapes.ts).
    detects: ['VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  {
    name: 'field-removed',
    description: 'Every representation leaves out created_at, a field v2 has always sent.',
    detects: ['VER-compatible-within-major', 'DOC-body-matches-schema'],
  },
  // The server's own OpenAPI document: answers it does not describe. Each breaks no
  // convention (410 for a deleted item, HAL for an action record, a time as a number where
  // no convention reads it), only the document's promise: the DOC checks alone see them.
  {
    name: 'deleted-item-410',
    description: 'A GET of a deleted item answers 410 Gone, which the document does not list (it promises 404).',
    detects: ['DOC-status-documented'],
  },
  {
    name: 'action-record-as-hal',
    description: 'An action record is answered as application/hal+json, a media type the document does not list for it.',
    detects: ['DOC-media-type-documented'],
  },
  {
    name: 'action-time-as-number',
    description: "An action record's time (completed_at) is epoch milliseconds, where the document types it a date-time.",
    detects: ['DOC-body-matches-schema'],
  },
  {
    name: 'action-location-dropped',
    description: 'Taking an action answers 201 without the Location header the document marks required.',
    detects: ['DOC-required-headers'],
  },
  {
    name: 'patch-skips-validation',
    description: 'A PATCH is not validated: a field of the wrong type or outside its enum is dropped and the rest applied, with a 200.',
    detects: ['ERR-validation-422'],
  },
  {
    name: 'text-max-length-unchecked',
    description: 'Text longer than its documented maxLength is stored: a project named with 201 characters is created, not refused.',
    // What it stores it answers: the 201 and any listing of the item break the response schema too.
    detects: ['DOC-invalid-bodies-refused', 'DOC-body-matches-schema'],
  },
  {
    name: 'enum-member-refused',
    description: 'The first member of a documented enum is refused with 422: a project\'s status "active", a member\'s role "owner".',
    detects: ['DOC-valid-bodies-accepted'],
  },
] as const satisfies readonly FaultDefinition[];

/**
 * The name of a fault in the catalogue. The server's active faults are a
 * `ReadonlySet<FaultName>`, so `faults.has('misspelt-name')` does not compile.
 */
export type FaultName = (typeof definitions)[number]['name'];

/**
 * One deliberate defect, as the catalogue lists it. `name` is typed `string` here so that
 * callers can compare user input against it; inside the server, use {@link FaultName}.
 */
export type Fault = FaultDefinition;

/** Every fault the reference server knows, in the order of the conventions they break. */
export const faultCatalogue: readonly Fault[] = definitions;

/** The names in the catalogue, in its order, for validation and error messages. */
export const faultNames: readonly FaultName[] = definitions.map((f) => f.name);

/** Whether `name` is a fault in the catalogue. */
export function isFaultName(name: string): name is FaultName {
  return (faultNames as readonly string[]).includes(name);
}

/**
 * Checks requested fault names (user input, e.g. from the CLI) against the catalogue.
 *
 * @throws Error naming the unknown faults and listing the valid ones.
 */
export function resolveFaults(requested: readonly string[]): ReadonlySet<FaultName> {
  const unknown = requested.filter((name) => !isFaultName(name));
  if (unknown.length > 0) {
    throw new Error(
      `Unknown fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. ` +
        `Valid faults: ${faultNames.join(', ')}.`,
    );
  }
  return new Set(requested.filter(isFaultName));
}
