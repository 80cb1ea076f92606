/** The `webhooks` section as a {@link WebhooksProfile}: defaults applied, the signing scheme read, the secret resolved. */
import { RestprobeError } from '../../../errors.js';
import type { Scheme } from '../../../webhooks/signing.js';
import type { RawWebhooks } from '../../raw-config.js';
import type { SecretResolver } from '../../secrets.js';
import type { WebhooksProfile } from './profile.js';

/** What `webhooks` holds where the config says nothing. */
export const webhooksDefaults = {
  webhookSecretField: 'secret',
  webhookActions: ['create'] as readonly ('create' | 'update' | 'delete')[],
  webhookScheme: 'standard',
  webhookSignaturePrefix: '',
  webhookSignatureEncoding: 'hex',
  webhookSignatureSigned: 'body',
  webhookToleranceSeconds: 300,
  webhookDeliveryWithinMs: 30_000,
  webhookSlowAnswerMs: 35_000,
  webhookQuietMs: 5_000,
} as const;

/** The named scheme, or `webhooks.signature` when the scheme is `custom` (which needs it). */
function webhookScheme(raw: RawWebhooks): Scheme {
  const scheme = raw.scheme ?? webhooksDefaults.webhookScheme;
  if (scheme !== 'custom') return scheme;
  const sig = raw.signature;
  if (sig === undefined) throw new RestprobeError('ERR_CONFIG_INVALID', 'webhooks.scheme is custom, but webhooks.signature does not describe it', ['webhooks.signature: required when webhooks.scheme is custom']);
  return {
    header: sig.header,
    prefix: sig.prefix ?? webhooksDefaults.webhookSignaturePrefix,
    encoding: sig.encoding ?? webhooksDefaults.webhookSignatureEncoding,
    signed: sig.signed ?? webhooksDefaults.webhookSignatureSigned,
    ...(sig.idHeader !== undefined && { idHeader: sig.idHeader }),
    ...(sig.timestampHeader !== undefined && { timestampHeader: sig.timestampHeader }),
  };
}

export function webhooksProfile(raw: RawWebhooks, secrets: SecretResolver): WebhooksProfile {
  return {
    subscribePath: raw.subscribe.path,
    subscribeBody: raw.subscribe.body ?? { url: '{url}' },
    secretField: raw.subscribe.secretField ?? webhooksDefaults.webhookSecretField,
    ...(raw.secret && { secret: secrets.resolve('webhooks.secret', raw.secret) }),
    ...(raw.collection !== undefined && { collection: raw.collection }),
    actions: raw.actions ?? webhooksDefaults.webhookActions,
    scheme: webhookScheme(raw),
    ...(raw.publicUrl !== undefined && { publicUrl: raw.publicUrl }),
    toleranceSeconds: raw.toleranceSeconds ?? webhooksDefaults.webhookToleranceSeconds,
    deliveryWithinMs: raw.deliveryWithinMs ?? webhooksDefaults.webhookDeliveryWithinMs,
    slowAnswerMs: raw.slowAnswerMs ?? webhooksDefaults.webhookSlowAnswerMs,
    quietMs: raw.quietMs ?? webhooksDefaults.webhookQuietMs,
  };
}
