/** The check catalogue holds together: ids, sections, rules, and its generated documentation. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sections } from '../src/model/section.js';
import { catalogueEntries, listedChecks, renderCatalogueMarkdown, renderCatalogueText } from '../src/cli/checks-command.js';
import { faultIndex } from '../src/cli/fault-index.js';
import { faultCatalogue } from '../reference-server/src/index.js';
import { catalogue, receiverCatalogue } from '../suites/catalogue.js';
import { repoRoot } from './support/target.js';

describe('check catalogue', () => {
  it('has unique ids, the receiver-mode checks included', () => {
    const ids = listedChecks.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(listedChecks.map((c) => [c.id, c] as const))('%s: id is <SECTION>-<kebab-slug> and the rule is one normative sentence', (id, check) => {
    expect(id).toMatch(/^[A-Z]{3}-[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(id.slice(0, 3)).toBe(check.section);
    expect(Object.keys(sections)).toContain(check.section);
    expect(check.rule).toMatch(/[.)]$/);
    // The severity follows the rule's own keyword; an info check states no requirement.
    const keyword = /\bMUST\b/.test(check.rule) ? 'must' : /\bSHOULD\b/.test(check.rule) ? 'should' : 'info';
    expect(check.severity).toBe(keyword);
  });

  it('lists the receiver-mode checks after the catalogue, marked so, and restprobe run does not run them', () => {
    const receiverIds = receiverCatalogue.map((c) => c.id);
    expect(receiverIds).toEqual(['EVT-receiver-valid-2xx', 'EVT-receiver-bad-signature-4xx', 'EVT-receiver-rotation-2xx', 'EVT-receiver-reserialised-4xx', 'EVT-receiver-timestamp-4xx', 'EVT-receiver-unsigned-4xx', 'EVT-receiver-duplicate-2xx']);
    expect(catalogue.map((c) => c.id).filter((id) => receiverIds.includes(id))).toEqual([]);
    const entries = catalogueEntries(listedChecks);
    expect(entries.filter((e) => e.mode === 'receiver').map((e) => e.id)).toEqual(receiverIds);
    expect(entries.filter((e) => e.mode === 'run')).toHaveLength(catalogue.length);
    expect(entries.find((e) => e.id === 'EVT-receiver-valid-2xx')?.configKeys).toEqual(['webhooks check-receiver']);
    expect(renderCatalogueText(listedChecks)).toMatch(/^EVT-receiver-unsigned-4xx +must +A delivery without signature headers gets a 4xx {2}\(receiver mode: restprobe webhooks check-receiver\)$/m);
  });

  it('docs/checks.md is current (regenerate with: npm run docs:checks)', () => {
    const onDisk = readFileSync(join(repoRoot, 'docs', 'checks.md'), 'utf8');
    expect(onDisk.trimEnd()).toBe(renderCatalogueMarkdown(listedChecks, faultIndex(), faultCatalogue).trimEnd());
  });
});
