/**
 * Links: the paths into the API that the server itself makes (an item's `_links`, the
 * index, the OpenAPI `servers`, the deprecation notice's renamed paths).
 *
 * The routes are written once, under `/v2`, but a link must name the path the client
 * reaches under its own version and scheme (`/v1/…`, or `/projects?v=1`). So a link is
 * made as a {@link RouteLink}, a value apart from every string, and written out for the
 * request when the reply is serialised (versions.ts `linkWriter`). A client's data is
 * only ever strings, and so is written exactly as it was stored.
 */
export class RouteLink {
  constructor(
    /** The path as the routes name it (`/v2/projects/…`). */
    readonly routePath: string,
  ) {}

  /** Outside a reply (an ETag's bytes, a webhook payload), a link is its route path. */
  toJSON(): string {
    return this.routePath;
  }
}

/** A link to a route path (`/v2/…`). */
export function link(routePath: string): RouteLink {
  return new RouteLink(routePath);
}

/** Writes a route path as a request reaches it. */
export type LinkWriter = (routePath: string) => string;

/** JSON text of a value, each link written by `write` (none: as its route path). */
export function serialise(value: unknown, write?: LinkWriter): string {
  if (write === undefined) return JSON.stringify(value);
  // The holder's own member, not `v`: JSON.stringify has already called toJSON on `v`.
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const own = this[key];
    return own instanceof RouteLink ? write(own.routePath) : v;
  });
}
