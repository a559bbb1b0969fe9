// The webhook helpers of a merchant's receiver, apart from steps.mjs: they need `node:crypto`, which a Worker only
// has with the nodejs_compat flag, while the clients need no Node built-in at all.
import { signTestPayload, verifySignature, WebhookVerificationError } from '@paykit/payments/webhooks';

/** Signs a notification, verifies it, and has a tampered copy refused. */
export function webhookStep() {
  const secret = 'whsec_runtime_smoke';
  const { body, header } = signTestPayload({ eventType: 'transaction.updated', receiptNumber: '1000000001' }, { secret });
  const verified = verifySignature(body, header, { secret }).timestamp === /^t=(\d+),/.exec(header)?.[1];
  try {
    verifySignature(body.replace('1000000001', '1000000002'), header, { secret });
    return { verified, tampered: 'accepted' };
  } catch (error) {
    return { verified, tampered: error instanceof WebhookVerificationError ? error.reason : String(error) };
  }
}
