/**
 * The need vocabulary: what a check needs from the target's config before it can run.
 * The engine resolves a check's needs before calling it and hands it the values; an unmet
 * need is a skip that names the exact config key, and no request is sent.
 *
 * Adding a need is one entry here. A misspelt need fails to compile where a check names
 * it, and so does a config key that is not in {@link ConfigKey}.
 *
 * @example
 * ```ts
 * const check = defineCheck({
 *   id: 'END-get-item-200', needs: ['writable'], …,
 *   async run(ctx, { writable }) { const item = await ctx.create(writable); … },
 * });
 * ```
 */
import type { ConfigKey } from './config-keys.js';
import { Unmet } from './unmet.js';
import type { RunInputs } from './run-inputs.js';
import type { ShapeBaseline } from './shape.js';
import { resolveOtherClient, resolveRateLimit, type ProbeClient, type RateLimitProbe } from './rate-limit-needs.js';
import type { ApiKeyAuth, ChildProfile, CollectionMethod, CollectionProfile, LimitedAuth, MintAuth, SecretEndpoint, SessionAuth, TargetProfile, VersionProfile, WebhooksProfile } from './profile.js';
import { resolveReceiver, type ReceiverTarget } from './receiver-need.js';
import { resolveCodeFlow, resolveConfidentialClient, resolveJwtAccess, resolveOAuthClient, resolveSigningKey, type CodeFlowClient, type ConfidentialClient, type JwtAccess, type OAuthClient, type SigningKey } from './oauth-needs.js';

export { Unmet };

export interface Need<T> {
  /** What the need is, for the catalogue: "a writable collection". */
  readonly label: string;
  /** The keys that enable it, for `restprobe checks --json` and docs/checks.md. */
  readonly keys: readonly ConfigKey[];
  /** Met by one collection: a check that needs it runs once per collection that meets it. */
  readonly perCollection?: true;
  /** Resolved against the target's profile and, for what a run is given besides (an earlier report), the run's inputs. */
  resolve(profile: TargetProfile, inputs: RunInputs): T | Unmet;
}

/** A collection the harness may create items in. */
export type WritableCollection = CollectionProfile & { readonly createBody: Record<string, unknown> };
/** A writable collection whose items can be marked and listed by their mark. */
export type WalkableCollection = WritableCollection & { readonly markField: string };
/** A walkable collection with a sort field the harness can set on the items it creates. */
export type SortableWalk = WalkableCollection & { readonly sortField: string };
/** A walkable collection with a declared page-size cap small enough to fill past. */
export type CappedWalk = WalkableCollection & { readonly maxLimit: number };
/** A writable collection and one of its configured sub-collections. */
export interface NestedCollection {
  readonly parent: WritableCollection;
  readonly child: ChildProfile;
}

/** Items whose `_links` name state-dependent actions: a writable collection's own, or those of one of its sub-collections. */
export interface ActionItems {
  /** The collection whose items carry the actions, or that owns the sub-collection whose items do. */
  readonly collection: WritableCollection;
  /** The sub-collection whose items carry them; absent: the collection's own items. */
  readonly child?: ChildProfile;
  readonly actions: readonly string[];
}

/** The target's webhooks as configured, and the marked writable collection whose writes trigger events. */
export interface WebhookProbe {
  readonly config: WebhooksProfile;
  readonly trigger: WritableCollection & { readonly markField: string };
}

function webhookProbe(p: TargetProfile): WebhookProbe | Unmet {
  const config = p.webhooks;
  if (config === undefined) return new Unmet('no webhook subscription configured', 'webhooks');
  if (p.safety.readOnly) return new Unmet('read-only run: subscribing and triggering events writes', 'safety.readOnly');
  const named = config.collection === undefined ? p.collections : p.collections.filter((c) => c.name === config.collection);
  if (named.length === 0) return new Unmet(`no collection named ${config.collection}`, 'webhooks.collection');
  const c = named.find((x) => creatable(x) && x.markField !== undefined);
  if (c === undefined) return new Unmet(`no ${config.collection ?? 'configured'} collection restprobe can create marked items in (create body, POST and DELETE, mark) to trigger events`, 'collections[].mark');
  return { config, trigger: asWritable(c) as WebhookProbe['trigger'] };
}

/** Filling a page past a cap above this costs too many requests for one check. */
export const maxCapToFill = 999;

const need = <T>(n: Need<T>): Need<T> => n;

/** Whether the collection's config says it supports `method` (absent `methods`: every one). */
export function supports(c: CollectionProfile, method: CollectionMethod): boolean {
  return c.methods === undefined || c.methods.includes(method);
}

/** A collection restprobe may create in: it has a create body, takes POST, and can DELETE what it made. */
export const creatable = (c: CollectionProfile): boolean => c.createBody !== undefined && supports(c, 'POST') && supports(c, 'DELETE');

/**
 * The collection as the checks may write to it: a replace or patch body only where the
 * collection takes PUT or PATCH, so no check sends a write the config says is unsupported.
 */
function asWritable(c: CollectionProfile): WritableCollection {
  return { ...c, replaceBody: supports(c, 'PUT') ? c.replaceBody : undefined, patchBody: supports(c, 'PATCH') ? c.patchBody : undefined } as WritableCollection;
}

function writable(p: TargetProfile): WritableCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check writes', 'safety.readOnly');
  const c = p.collections.find(creatable);
  if (c) return asWritable(c);
  const withBody = p.collections.find((x) => x.createBody !== undefined);
  if (withBody) return new Unmet(`${withBody.name} takes no ${supports(withBody, 'POST') ? 'DELETE: restprobe would leave what it creates' : 'POST'}`, 'collections[].methods');
  return new Unmet('no collection with a create body', 'collections[].create.body');
}

/** The writable collection when it also has `field`, else why not. */
function writableWith<F extends 'replaceBody' | 'patchBody'>(p: TargetProfile, field: F, key: ConfigKey): (WritableCollection & Required<Pick<CollectionProfile, F>>) | Unmet {
  const c = writable(p);
  if (c instanceof Unmet) return c;
  if (c[field] !== undefined) return c as WritableCollection & Required<Pick<CollectionProfile, F>>;
  const method = field === 'replaceBody' ? 'PUT' : 'PATCH';
  if (!supports(c, method)) return new Unmet(`${c.name} takes no ${method}`, 'collections[].methods');
  return new Unmet(`no ${field === 'replaceBody' ? 'replace' : 'patch'} body for ${c.name}`, key);
}

/**
 * How far a collection got towards being walkable, in the order the config must say it:
 * a skip names the first key still missing on the collection that got furthest.
 */
const walkSteps: readonly ConfigKey[] = ['collections[].pagination.style', 'collections[].create.body', 'collections[].mark', 'collections[].filters'];

/** Cursor pages, or positional ones (an offset or a page number: they behave alike under writes). */
type WalkStyle = 'cursor' | 'positional';
const ofWalkStyle = (c: CollectionProfile, style: WalkStyle): boolean => (c.pagination.style === 'cursor') === (style === 'cursor');
const styleName = (style: WalkStyle): string => (style === 'cursor' ? 'cursor' : 'offset- or page-number');

function walkable(p: TargetProfile, style: WalkStyle): WalkableCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check creates items to walk', 'safety.readOnly');
  const ofStyle = p.collections.filter((c) => ofWalkStyle(c, style));
  if (ofStyle.length === 0) return new Unmet(`no ${styleName(style)}-paginated collection`, 'collections[].pagination.style');
  const writableOnes = ofStyle.filter((c) => c.createBody !== undefined);
  if (writableOnes.length === 0) return new Unmet(`no ${styleName(style)}-paginated collection has a create body`, 'collections[].create.body');
  const marked = writableOnes.filter((c) => c.markField !== undefined);
  if (marked.length === 0) return new Unmet(`no writable ${styleName(style)}-paginated collection has a mark field`, 'collections[].mark');
  const c = marked.find((x) => x.filters.includes(x.markField!));
  if (c) return c as WalkableCollection;
  const first = marked[0]!;
  return new Unmet(`the mark field "${first.markField}" of ${first.name} is not in its filters, so its items cannot be listed by their mark`, 'collections[].filters');
}

const sortedWalkKeys: readonly ConfigKey[] = ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].sorts', 'collections[].create.body', 'safety.readOnly'];

/** A walkable collection of `style` with a sort field that `fits`, or why there is none. */
function walkableSortedBy(p: TargetProfile, style: WalkStyle | 'any', fits: (c: WalkableCollection, field: string) => boolean, missing: (c: WalkableCollection) => string): SortableWalk | Unmet {
  const c = style === 'any' ? anyWalkable(p) : walkable(p, style);
  if (c instanceof Unmet) return c;
  const sortField = c.sorts.find((f) => fits(c, f));
  return sortField === undefined ? new Unmet(missing(c), 'collections[].sorts') : { ...c, sortField };
}

/** A walkable collection of either style, cursor first; unmet, the style that got further. */
function anyWalkable(p: TargetProfile): WalkableCollection | Unmet {
  const cursor = walkable(p, 'cursor');
  if (!(cursor instanceof Unmet)) return cursor;
  const offset = walkable(p, 'positional');
  if (!(offset instanceof Unmet)) return offset;
  return walkSteps.indexOf(offset.configKey) > walkSteps.indexOf(cursor.configKey) ? offset : cursor;
}

/** The API's versioning, when the config describes it well enough to name a version in a request. */
function versioning(p: TargetProfile): VersionProfile | Unmet {
  const v = p.version;
  if (v === undefined) return new Unmet('no API version configured', 'version');
  if (v.scheme === 'header' && v.header.toLowerCase() === 'accept' && v.vendor === undefined) return new Unmet('the header scheme in Accept needs the vendor of application/vnd.<vendor>+json', 'version');
  return v;
}

/** The versioning, when its `list` of versions is not empty. */
function withVersions(p: TargetProfile, list: 'deprecated' | 'removed' | 'renames', key: ConfigKey, what: string): VersionProfile | Unmet {
  const v = versioning(p);
  if (v instanceof Unmet) return v;
  return v[list].length > 0 ? v : new Unmet(`no ${what} configured`, key);
}

/** A writable collection and its first sub-collection that `fits`, or why there is none. */
function nestedIn(p: TargetProfile, fits: (child: ChildProfile) => boolean): NestedCollection | Unmet {
  if (p.safety.readOnly) return new Unmet('read-only run: this check creates an item and a child of it', 'safety.readOnly');
  const withChildren = p.collections.flatMap((c) => {
    const child = (c.children ?? []).find(fits);
    return child === undefined ? [] : [{ parent: c, child }];
  });
  if (withChildren.length === 0) return new Unmet('no sub-collection configured', 'collections[].children');
  const found = withChildren.find((x) => creatable(x.parent));
  if (found === undefined) return cannotCreate(withChildren[0]!.parent, 'has sub-collections');
  return { parent: asWritable(found.parent), child: found.child };
}

/** Why nothing is created in `c` (which `creatable` refused), for a check that would: `what` it has all the same. */
function cannotCreate(c: CollectionProfile, what: string): Unmet {
  if (c.createBody === undefined) return new Unmet(`${c.name} ${what} but no create body`, 'collections[].create.body');
  return new Unmet(`${c.name} ${what} but takes no ${supports(c, 'POST') ? 'DELETE: restprobe would leave what it creates' : 'POST'}`, 'collections[].methods');
}

/** Every need a check can declare. */
export const needs = {
  /** A configured collection. */
  collection: need<CollectionProfile>({
    perCollection: true,
    label: 'a collection',
    keys: ['collections'],
    resolve: (p) => p.collections[0] ?? new Unmet('no collection configured', 'collections'),
  }),
  /** The first configured collection, once per run (where one GET stands for the API: a token presented to the resource server). */
  firstCollection: need<CollectionProfile>({
    label: 'a collection',
    keys: ['collections'],
    resolve: (p) => p.collections[0] ?? new Unmet('no collection configured', 'collections'),
  }),
  /** A run that may send writes (not `--read-only`). */
  mayWrite: need<true>({
    label: 'a run that may write',
    keys: ['safety.readOnly'],
    resolve: (p) => (p.safety.readOnly ? new Unmet('read-only run: this check sends writes', 'safety.readOnly') : true),
  }),
  /** A run that may send probes that can hurt a target (not `--no-destructive`). */
  destructive: need<true>({
    label: 'a run that may send probes that can hurt the target',
    keys: ['safety.destructive'],
    resolve: (p) => (p.safety.destructive ? true : new Unmet('safety.destructive is false: no probe that can hurt the target', 'safety.destructive')),
  }),
  /** A collection with a create body, on a run that may write. */
  writable: need<WritableCollection>({ perCollection: true, label: 'a writable collection', keys: ['collections[].create.body', 'safety.readOnly'], resolve: writable }),
  /** A writable collection with a full body for PUT. */
  replaceable: need({
    perCollection: true,
    label: 'a writable collection with a replace body',
    keys: ['collections[].create.body', 'collections[].replace.body', 'safety.readOnly'],
    resolve: (p) => writableWith(p, 'replaceBody', 'collections[].replace.body'),
  }),
  /** A writable collection with a partial body for PATCH. */
  patchable: need({
    perCollection: true,
    label: 'a writable collection with a patch body',
    keys: ['collections[].create.body', 'collections[].patch.body', 'safety.readOnly'],
    resolve: (p) => writableWith(p, 'patchBody', 'collections[].patch.body'),
  }),
  /** A writable collection with a replace or a patch body. */
  updatable: need<WritableCollection>({
    perCollection: true,
    label: 'a writable collection with a replace or patch body',
    keys: ['collections[].create.body', 'collections[].replace.body', 'collections[].patch.body', 'safety.readOnly'],
    resolve: (p) => {
      const c = writable(p);
      if (c instanceof Unmet || c.replaceBody !== undefined || c.patchBody !== undefined) return c;
      if (!supports(c, 'PUT') && !supports(c, 'PATCH')) return new Unmet(`${c.name} takes neither PUT nor PATCH`, 'collections[].methods');
      return new Unmet(`no replace or patch body for ${c.name}`, 'collections[].patch.body');
    },
  }),
  /** A writable collection whose ids the client can make (PUT-creates). */
  clientIds: need<WritableCollection>({
    perCollection: true,
    label: 'a writable collection whose ids a client can make',
    keys: ['collections[].create.body', 'collections[].newId', 'safety.readOnly'],
    resolve: (p) => {
      const c = writable(p);
      if (c instanceof Unmet) return c;
      if (!supports(c, 'PUT')) return new Unmet(`${c.name} takes no PUT`, 'collections[].methods');
      if (c.newId !== 'none') return c;
      return new Unmet('the client cannot make ids for this collection', 'collections[].newId');
    },
  }),
  /** A writable cursor-paginated collection with a mark field that is also a filter. */
  cursorWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked cursor-paginated collection',
    keys: ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'safety.readOnly'],
    resolve: (p) => walkable(p, 'cursor'),
  }),
  /** The same, paginated by offset or page number. */
  offsetWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked offset- or page-number-paginated collection',
    keys: ['collections[].pagination.style', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'safety.readOnly'],
    resolve: (p) => walkable(p, 'positional'),
  }),
  /** A walkable collection of either style, cursor first. */
  anyWalk: need<WalkableCollection>({
    perCollection: true,
    label: 'a marked paginated collection',
    keys: ['collections[].mark', 'collections[].filters', 'collections[].create.body', 'safety.readOnly'],
    resolve: anyWalkable,
  }),
  /** A marked paginated collection that sorts on a string field of its create body. */
  sortableWalk: need<SortableWalk>({
    perCollection: true,
    label: 'a marked paginated collection with a settable sort field',
    keys: sortedWalkKeys,
    resolve: (p) => walkableSortedBy(p, 'any', (c, f) => typeof c.createBody[f] === 'string', (c) => `no sortable string field of ${c.name}'s create body`),
  }),
  /** A marked offset- or page-number-paginated collection that sorts newest first (by a creation time). */
  newestFirstWalk: need<SortableWalk>({
    perCollection: true,
    label: 'a marked offset- or page-number-paginated collection with a creation-time sort',
    keys: sortedWalkKeys,
    resolve: (p) => walkableSortedBy(p, 'positional', (_c, f) => /^created_?at$/i.test(f), () => 'no creation-time sort to put new items first'),
  }),
  /** A marked paginated collection with a declared cap of at most {@link maxCapToFill}. */
  cappedWalk: need<CappedWalk>({
    perCollection: true,
    label: 'a marked paginated collection with a declared page-size cap',
    keys: ['collections[].pagination.maxLimit', 'collections[].mark', 'collections[].filters', 'collections[].create.body', 'safety.readOnly'],
    resolve: (p) => {
      const c = anyWalkable(p);
      if (c instanceof Unmet) return c;
      // The walkable collection cheapest to fill past its cap: cap + 1 items are created.
      const capped = (['cursor', 'positional'] as const)
        .map((style) => walkable(p, style))
        .filter((w): w is WalkableCollection => !(w instanceof Unmet) && w.pagination.maxLimit !== undefined)
        .sort((a, b) => a.pagination.maxLimit! - b.pagination.maxLimit!)[0];
      if (capped === undefined) return new Unmet(`the maximum page size of ${c.name} is not configured`, 'collections[].pagination.maxLimit');
      const max = capped.pagination.maxLimit!;
      if (max > maxCapToFill) return new Unmet(`maxLimit ${max} would need more than ${maxCapToFill + 1} items to observe`, 'collections[].pagination.maxLimit');
      return { ...capped, maxLimit: max };
    },
  }),
  /** A writable collection with a configured sub-collection. */
  nested: need<NestedCollection>({
    perCollection: true,
    label: 'a writable collection with a sub-collection',
    keys: ['collections[].children', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => nestedIn(p, () => true),
  }),
  /** Items (of a writable collection, or of its sub-collections) whose `_links` name state-dependent actions. */
  actions: need<readonly ActionItems[]>({
    perCollection: true,
    label: 'items with state-dependent actions',
    keys: ['collections[].actions', 'collections[].children[].actions', 'collections[].create.body', 'collections[].methods', 'safety.readOnly'],
    resolve: (p) => {
      if (p.safety.readOnly) return new Unmet('read-only run: this check creates items and takes their actions', 'safety.readOnly');
      const declared = p.collections.flatMap((c) => [
        ...((c.actions ?? []).length > 0 ? [{ collection: c, actions: c.actions! }] : []),
        ...(c.children ?? []).filter((child) => child.actions.length > 0).map((child) => ({ collection: c, child, actions: child.actions })),
      ]);
      if (declared.length === 0) return new Unmet('no collection or sub-collection names its state-dependent actions', 'collections[].actions');
      // Only where restprobe may create the items (and delete them again).
      const writable: ActionItems[] = declared.filter((d) => creatable(d.collection)).map((d) => ({ ...d, collection: asWritable(d.collection) }));
      return writable.length > 0 ? writable : cannotCreate(declared[0]!.collection, 'names state-dependent actions');
    },
  }),
  /** The collections whose answers the config declares personalised. */
  personalised: need<readonly CollectionProfile[]>({
    label: 'collections declared personalised',
    keys: ['collections[].personalised'],
    resolve: (p) => {
      const declared = p.collections.filter((c) => c.personalised === true);
      if (declared.length > 0) return declared;
      const why = p.collections.some((c) => c.personalised === false) ? 'every collection is declared not personalised' : 'no collection says whether its answers are personalised';
      return new Unmet(why, 'collections[].personalised');
    },
  }),
  /** Other base URLs of the same deployment. */
  nodes: need<readonly string[]>({
    label: 'other nodes of the deployment',
    keys: ['nodes'],
    resolve: (p) => (p.nodes.length > 0 ? p.nodes : new Unmet('no other nodes of the deployment configured', 'nodes')),
  }),
  /** Requests whose responses hold a secret, all sendable on this run. */
  secretEndpoints: need<readonly SecretEndpoint[]>({
    label: 'requests that return a secret',
    keys: ['secretEndpoints', 'safety.readOnly'],
    resolve: (p) => {
      if (p.secretEndpoints.length === 0) return new Unmet('no request that returns a secret configured', 'secretEndpoints');
      if (p.safety.readOnly && p.secretEndpoints.some((e) => e.method !== 'GET')) return new Unmet('read-only run: minting a secret writes', 'safety.readOnly');
      return p.secretEndpoints;
    },
  }),
  /** Configured credentials. */
  credentials: need<ApiKeyAuth>({
    label: 'credentials',
    keys: ['auth.apiKey'],
    resolve: (p) => p.auth.apiKey ?? new Unmet('no credentials configured', 'auth.apiKey'),
  }),
  /** A second credential that lacks the write scope. */
  limitedCredential: need<LimitedAuth>({
    label: 'a credential without write scope',
    keys: ['auth.limited'],
    resolve: (p) => {
      const limited = p.auth.limited;
      if (limited === undefined) return new Unmet('no credential without write scope configured', 'auth.limited');
      return limited.value.value === '' ? new Unmet(`environment variable ${limited.value.envName} (auth.limited) is not set`, 'auth.limited') : limited;
    },
  }),
  /** A login that sets a session cookie, on a run that may send it. */
  session: need<SessionAuth>({
    label: 'a session login',
    keys: ['auth.session', 'safety.readOnly'],
    resolve: (p) => {
      if (p.auth.session === undefined) return new Unmet('no session login configured', 'auth.session');
      return p.safety.readOnly ? new Unmet('read-only run: logging in and out writes', 'safety.readOnly') : p.auth.session;
    },
  }),
  /** Where an API key can be minted, on a run that may write. */
  mint: need<MintAuth>({
    label: 'a way to mint an API key',
    keys: ['auth.mint', 'safety.readOnly'],
    resolve: (p) => {
      if (p.auth.mint === undefined) return new Unmet('no way to mint an API key configured', 'auth.mint');
      return p.safety.readOnly ? new Unmet('read-only run: minting a key writes', 'safety.readOnly') : p.auth.mint;
    },
  }),
  /** The target's plain-HTTP URL. */
  plainHttpUrl: need<string>({
    label: "the target's plain-HTTP URL",
    keys: ['plainHttpUrl'],
    resolve: (p) => p.plainHttpUrl ?? new Unmet('no plain-HTTP URL configured to check its redirect', 'plainHttpUrl'),
  }),
  /** How the API names its version (`version`: scheme and current version). */
  version: need<VersionProfile>({ label: 'the API version scheme', keys: ['version'], resolve: versioning }),
  /** The versioning, with deprecated versions to judge. */
  deprecatedVersions: need<VersionProfile>({ label: 'deprecated API versions', keys: ['version', 'version.deprecated'], resolve: (p) => withVersions(p, 'deprecated', 'version.deprecated', 'deprecated version') }),
  /** The versioning, with removed versions to judge. */
  removedVersions: need<VersionProfile>({ label: 'removed API versions', keys: ['version', 'version.removed'], resolve: (p) => withVersions(p, 'removed', 'version.removed', 'removed version') }),
  /** The versioning, with field renames in transition (and deprecated versions that still carry the old names). */
  renames: need<VersionProfile>({
    label: 'field renames in transition',
    keys: ['version', 'version.renames', 'version.deprecated'],
    resolve: (p) => {
      const v = withVersions(p, 'renames', 'version.renames', 'field rename in transition');
      if (v instanceof Unmet) return v;
      return v.deprecated.length > 0 ? v : new Unmet('no deprecated version to carry the old names', 'version.deprecated');
    },
  }),
  /** A rate limiter the config lets restprobe probe (`rateLimit`), a client to burst as, and a budget that can pass the declared limit. */
  rateLimit: need<RateLimitProbe>({ label: 'a rate limiter to probe', keys: ['rateLimit', 'rateLimit.credential', 'rateLimit.budget', 'rateLimit.limit'], resolve: resolveRateLimit }),
  /** A webhook subscription restprobe can make, and a collection whose writes trigger events. */
  webhooks: need<WebhookProbe>({ label: 'a webhook subscription and writes that trigger events', keys: ['webhooks', 'webhooks.subscribe', 'webhooks.collection', 'collections[].mark', 'safety.readOnly'], resolve: webhookProbe }),
  /** An OAuth client (`auth.oauth`), public or confidential, on a run that may POST to the token endpoint. */
  oauthClient: need<OAuthClient>({ label: 'an OAuth client', keys: ['auth.oauth', 'safety.readOnly'], resolve: resolveOAuthClient }),
  /** An OAuth client with a secret: client credentials, a wrong secret refused. */
  confidentialClient: need<ConfidentialClient>({ label: 'an OAuth client with a secret', keys: ['auth.oauth', 'auth.oauth.clientSecret', 'safety.readOnly'], resolve: resolveConfidentialClient }),
  /** The OAuth client and an unattended login for the authorization code flow. */
  oauthCodeFlow: need<CodeFlowClient>({ label: 'an OAuth client and an unattended login', keys: ['auth.oauth', 'auth.oauth.login', 'auth.oauth.redirectUri', 'safety.readOnly'], resolve: resolveCodeFlow }),
  /** Access tokens restprobe can obtain (client credentials, the code flow, or both), to judge as JWTs. */
  jwtAccess: need<JwtAccess>({ label: 'an access token restprobe can get (client credentials, or the code flow)', keys: ['auth.oauth', 'auth.oauth.clientSecret', 'auth.oauth.login', 'auth.jwt'], resolve: resolveJwtAccess }),
  /** A key the API accepts tokens signed with (`auth.jwt.testSigningKey`). */
  jwtSigningKey: need<SigningKey>({ label: 'a test signing key', keys: ['auth.jwt.testSigningKey'], resolve: resolveSigningKey }),
  /** A second client of the rate limiter. */
  otherClient: need<ProbeClient>({ label: 'a second client of the rate limiter', keys: ['rateLimit.otherCredential', 'rateLimit.keyedBy'], resolve: resolveOtherClient }),
  /** The response shapes an earlier report recorded: a run input (`--baseline`), not a fact of the target. */
  baseline: need<ShapeBaseline>({ label: 'an earlier report to compare with', keys: ['--baseline'], resolve: (_p, inputs) => inputs.baseline ?? new Unmet('no earlier report to compare with', '--baseline') }),
  /** A team's webhook receiver to send signed deliveries to: a run input of `restprobe webhooks check-receiver`. */
  receiver: need<ReceiverTarget>({ label: 'a webhook receiver to send deliveries to', keys: ['webhooks check-receiver'], resolve: resolveReceiver }),
} as const;

export type NeedName = keyof typeof needs;
/** What a met need hands the check. */
export type NeedValue<K extends NeedName> = Exclude<ReturnType<(typeof needs)[K]['resolve']>, Unmet>;
/** The values of the needs a check declared, by name. */
export type Resolved<N extends NeedName> = { readonly [K in N]: NeedValue<K> };

/** Resolves `names` in order: their values, or the first that is not met. */
export function resolveNeeds(names: readonly NeedName[], profile: TargetProfile, inputs: RunInputs = {}): Record<string, unknown> | Unmet {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = needs[name].resolve(profile, inputs);
    if (value instanceof Unmet) return value;
    out[name] = value;
  }
  return out;
}

/** The values of the optional needs that are met. */
export function resolveOptional(names: readonly NeedName[], profile: TargetProfile, inputs: RunInputs = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = needs[name].resolve(profile, inputs);
    if (!(value instanceof Unmet)) out[name] = value;
  }
  return out;
}
