/** The check catalogue holds together: ids, sections, rules, and its generated documentation. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sections } from '../src/model/section.js';
import { renderCatalogueMarkdown } from '../src/cli/checks-command.js';
import { faultIndex } from '../src/cli/fault-index.js';
import { faultCatalogue } from '../reference-server/src/index.js';
import { catalogue } from '../suites/catalogue.js';
import { repoRoot } from './support/target.js';

describe('check catalogue', () => {
  it('has unique ids', () => {
    const ids = catalogue.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(catalogue.map((c) => [c.id, c] as const))('%s: id is <SECTION>-<kebab-slug> and the rule is one normative sentence', (id, check) => {
    expect(id).toMatch(/^[A-Z]{3}-[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(id.slice(0, 3)).toBe(check.section);
    expect(Object.keys(sections)).toContain(check.section);
    expect(check.rule).toMatch(/[.)]$/);
    // The severity follows the rule's own keyword; an info check states no requirement.
    const keyword = /\bMUST\b/.test(check.rule) ? 'must' : /\bSHOULD\b/.test(check.rule) ? 'should' : 'info';
    expect(check.severity).toBe(keyword);
  });

  it('docs/checks.md is current (regenerate with: npm run docs:checks)', () => {
    const onDisk = readFileSync(join(repoRoot, 'docs', 'checks.md'), 'utf8');
    expect(onDisk.trimEnd()).toBe(renderCatalogueMarkdown(catalogue, faultIndex(), faultCatalogue).trimEnd());
  });
});
