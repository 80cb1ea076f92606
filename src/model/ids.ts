/** What ids look like, for the checks that must tell one kind from another. */

/** A UUID in its canonical 8-4-4-4-12 hex form, either case. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
