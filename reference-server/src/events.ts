/**
 * Events: `{ id, kind, note, created_at, updated_at }`, an append-only log. A collection
 * whose items cannot be replaced, patched or deleted (405 with Allow), as real APIs have:
 * it proves that restprobe sends no write a collection's `methods` leave out, and creates
 * nothing where it cannot delete it again. Listed by page number (`page`, `per_page`,
 * direction in `order`), as many real APIs page.
 */
import { createdAtSort, exactFilter, type ListingSpec } from './listing.js';
import type { ResourceKind } from './resources.js';
import { ruleKind } from './rule-kind.js';
import type { Collection } from './store.js';
import type { FieldRules } from './validation.js';

export type EventData = {
  readonly kind: string;
  readonly note: string | null;
};

export const eventRules: FieldRules = {
  kind: { kind: 'text', required: true, max: 100 },
  note: { kind: 'text', required: false, max: 500 },
};

export const eventsPath = '/v2/events';

export function eventPath(id: string): string {
  return `${eventsPath}/${encodeURIComponent(id)}`;
}

export function eventKind(store: Collection<EventData>): ResourceKind<EventData> {
  return ruleKind({ noun: 'event', store, itemPath: eventPath, rules: eventRules });
}

/** The event listing: filter `kind`, oldest first (`order=desc`: newest first). */
export const eventListing: ListingSpec<EventData> = {
  filters: [exactFilter('kind', (e) => e.kind)],
  sorts: [createdAtSort()],
};
