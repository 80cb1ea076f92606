/**
 * What `restprobe checks` prints, written at build time (scripts/write-catalogue-listing.js),
 * so listing the catalogue loads none of its modules.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The catalogue as `restprobe checks` prints it: as text, and as `--json`. */
export interface CatalogueListing {
  readonly text: string;
  readonly json: string;
}

/** Where the build writes the listing, under the package root. */
export const listingPath = (): string => join(packageRoot(), 'dist', 'catalogue-listing.json');

/** The listing the build wrote; undefined when there is none (a build that stopped before it), so the caller makes it. */
export async function readListing(): Promise<CatalogueListing | undefined> {
  try {
    const read = JSON.parse(await readFile(listingPath(), 'utf8')) as Partial<CatalogueListing>;
    return typeof read.text === 'string' && typeof read.json === 'string' ? { text: read.text, json: read.json } : undefined;
  } catch {
    return undefined;
  }
}
