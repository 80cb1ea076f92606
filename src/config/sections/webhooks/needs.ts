/** What the EVT- checks need of the `webhooks` section: a subscription restprobe can make, and writes that trigger events. */
import { need } from '../../../model/need.js';
import type { TargetProfile } from '../../../model/profile.js';
import { Unmet } from '../../../model/unmet.js';
import { asWritable, creatable, type WritableCollection } from '../collections/needs.js';
import type { WebhooksProfile } from './profile.js';

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


/** The needs the webhooks section meets. */
export const webhooksNeeds = {
  /** A webhook subscription restprobe can make, and a collection whose writes trigger events. */
  webhooks: need<WebhookProbe>({ label: 'a webhook subscription and writes that trigger events', keys: ['webhooks', 'webhooks.subscribe', 'webhooks.collection', 'collections[].mark', 'safety.readOnly'], resolve: webhookProbe }),
} as const;
