import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export function newSecret(): { shown: string; stored: string } {
  const stored = randomBytes(32).toString('base64');
  return { shown: `whsec_${stored}`, stored };
}

/**
 * The headers of a delivery signed as the Standard Webhooks specification says:
 * `webhook-signature` is `v1,` and the base64 HMAC-SHA256, keyed with the secret's bytes, of
 * `{webhook-id}.{webhook-timestamp}.{body}`.
 */
export function signedHeaders(input: {
  secret: string;
  id: string;
  /** Seconds since the epoch. */
  timestamp: number;
  body: string;
}): Record<string, string> {
  const signed = `${input.id}.${input.timestamp}.${input.body}`;
  const mac = createHmac('sha256', Buffer.from(input.secret, 'base64'))
    .update(signed)
    .digest('base64');
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': `v1,${mac}`,
  };
}
