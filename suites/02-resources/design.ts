/** §2 general rules, read from the paths the API shows and the config names. */
import { CheckFailure, CheckSkipped, defineCheck } from '../../src/model/check.js';
import { linkedItems } from '../../src/check-kit/links.js';
import { pathProblems } from '../../src/check-kit/path-design.js';
import { targetOrigins } from '../../src/check-kit/created-url.js';

export const pathDesign = defineCheck({
  id: 'RES-path-design',
  title: 'Paths are plural lowercase kebab-case nouns, nested at most two levels',
  rule: 'Every path segment MUST be a lowercase kebab-case noun, plural where it names a collection, and never a verb (the method is the verb; a compound is judged by its head noun, `upload-sessions`); nesting MUST go at most two levels deep from the first collection, `/<collection>/<id>/<sub-collection>` (§2 general rules). Judged on the configured paths, and on the Locations and `_links` the API answers with.',
  severity: 'must',
  needs: [],
  uses: ['mayWrite'],
  dependsOn: ['END-create-returns-resource'],
  async run(ctx, { mayWrite }) {
    // Where each path was seen, by path relative to the base URL's path; listings apart (their last segment is a collection).
    const seen = new Map<string, string>();
    const listings = new Set<string>();
    const ids = new Set<string>();
    for (const c of ctx.profile.collections) {
      seen.set(c.path, `collections[].path of ${c.name}`).set(c.itemPath, `collections[].itemPath of ${c.name}`);
      listings.add(c.path);
      for (const child of c.children ?? []) {
        seen.set(child.path, `children[].path of ${child.name}`).set(child.itemPath, `children[].itemPath of ${child.name}`);
        listings.add(child.path);
      }
    }
    if (seen.size === 0) throw new CheckSkipped('no configured path to judge', 'collections');
    const basePath = new URL(ctx.profile.baseUrl).pathname.replace(/\/+$/, '');
    const origins = targetOrigins(ctx.profile);
    /** The href's path relative to the base URL's path; undefined for another origin's (a web page, a CDN's file): not the API's to design. */
    const relative = (href: string): string | undefined => {
      const url = new URL(href, `${ctx.profile.baseUrl}/`);
      if (!origins.has(url.origin)) return undefined;
      const path = url.pathname;
      return basePath !== '' && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
    };
    const elsewhere: string[] = [];
    const see = (href: string, where: string): void => {
      const path = relative(href);
      if (path === undefined) elsewhere.push(href);
      else seen.set(path, where);
    };
    if (mayWrite) {
      for (const item of await linkedItems(ctx)) {
        ids.add(item.id);
        if (item.location !== undefined) see(item.location, `the Location of ${item.what}`);
        for (const [name, href] of item.links) see(href, `_links.${name} of ${item.what}`);
      }
      if (elsewhere.length > 0) ctx.note(`not judged, on another origin than the API's: ${elsewhere.slice(0, 5).join(', ')}${elsewhere.length > 5 ? ', …' : ''}`);
    } else {
      ctx.note('only the configured paths are judged: a read-only run creates no item to show Locations and _links (safety.readOnly)');
    }
    for (const [path, where] of seen) {
      const problems = pathProblems(path, ids, listings.has(path));
      if (problems.length > 0) throw new CheckFailure(`${path} (${where}): ${problems.join('; ')}`, 'plural lowercase kebab-case nouns, nested at most two levels', path);
    }
    ctx.note(`${seen.size} paths judged: ${[...seen.keys()].slice(0, 12).join(', ')}${seen.size > 12 ? ', …' : ''}`);
  },
});
