// Verifying a notification without a web framework, and the test helper merchants sign their own bodies with.
import { signTestPayload, verifySignature, WebhookVerificationError } from '@paykit/payments/webhooks';

export function roundTrip(secret: string): boolean {
  const { body, header } = signTestPayload({ eventType: 'alias.registered' }, { secret });
  try {
    const parsed = verifySignature(body, header, { secret });
    return parsed.signatures.length > 0;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

// @ts-expect-error the secret is required.
verifySignature('{}', 't=1,v1=00', {});
