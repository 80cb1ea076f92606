/**
 * Fields a server keeps up to date on its own, by the names frameworks give them: the time of
 * the last change (Rails, Django `auto_now`, Sequelize, TypeORM, Prisma `@updatedAt`,
 * Mongoose timestamps) and optimistic-locking revisions (JPA `@Version`, Rails
 * `lock_version`, EF `RowVersion`, ASP.NET Identity's `ConcurrencyStamp`, Mongoose `__v`,
 * CouchDB `_rev`). A representation compared before and after a write may differ in them
 * without breaking any rule.
 */
import type { CollectionProfile } from './profile.js';

/**
 * The fields a comparison across a call that must change nothing ignores: those the config
 * declares volatile, not the framework names taken by default (a GET that bumps `version`
 * changed the item all the same).
 *
 * @example
 * ```ts
 * diffRepresentations(before, after, volatileAcrossNoChange(collection));
 * ```
 */
export function volatileAcrossNoChange(c: Pick<CollectionProfile, 'volatileFields' | 'volatileByDefault'>): readonly string[] {
  return c.volatileByDefault === true ? [] : c.volatileFields;
}

/** The names themselves: `collections[].volatileFields` where the config gives none (less any field its bodies send). */
export const serverKeptFields: readonly string[] = [
  'updated_at', 'updatedAt', 'modified_at', 'modifiedAt', 'last_modified', 'lastModified', 'date_modified', 'dateModified', 'modified', 'updated',
  'version', 'lock_version', 'lockVersion', 'row_version', 'rowVersion', 'concurrency_stamp', 'concurrencyStamp', 'etag', '_etag', 'revision', '_rev', '__v',
];

const keptName = /^(updated|modified|last_?modified|changed|last_?updated|date_?modified)(_?(at|on|date|time))?$|^(_?etag|revision|version_?number|(lock_?)?version|row_?version|concurrency_?stamp|_rev|__v)$/i;

/**
 * Whether a property name is such a field's, in snake_case or camelCase: what `restprobe init`
 * declares volatile from a document's item schema.
 *
 * @example
 * ```ts
 * isServerKeptName('lastModifiedAt'); // true
 * isServerKeptName('name'); // false
 * ```
 */
export function isServerKeptName(name: string): boolean {
  return keptName.test(name.replace(/([a-z])([A-Z])/g, '$1_$2'));
}
