import { PaymentsError } from '../errors/payments-error.js';

/**
 * Refuses a success answer that is not what the operation returns: not a JSON object (a maintenance page, an empty
 * body, JSON cut short), without a property every answer of the operation has (a customer where a transaction
 * belongs), or a list without its `data` array. Such an answer is another request's, replayed because its
 * Idempotency-Key was reused (the service compares only the key), or comes from something between the client and the
 * service; read as the operation's, it would say that a payment was taken, or that none exists, without either being
 * known. A request that may have changed something is then an unknown outcome. The secret client checks its answers
 * so; the publishable client makes the same test with a shorter message (publishable-client.ts), to keep the browser
 * bundle under 6 kB.
 */
export function checkAnswer(
  operation: { readonly requires?: readonly string[] | undefined; readonly list?: boolean | undefined },
  method: string,
  url: string,
  status: number,
  data: unknown,
  idempotencyKey: string | undefined,
): void {
  const { requires } = operation;
  const body = data as Record<string, unknown> | undefined;
  // A JSON object is made by Object (JSON.parse gives nothing else); an array, text or nothing is not one.
  const missing =
    body?.constructor !== Object ? 'a JSON object' : (requires?.find((name) => !(name in body)) ?? (operation.list && !Array.isArray(body.data) ? 'a data list' : ''));
  if (requires && status !== 204 && missing) {
    throw new PaymentsError({
      kind: 'protocol',
      method,
      url,
      idempotencyKey,
      body: data,
      mustQueryState: method !== 'GET',
      message: `${method} ${url} answered ${status} without ${missing}: the answer to another request (a reused Idempotency-Key ${idempotencyKey}: use one per attempt, order-42/attempt-2) or from something in between. Query the resource for its state before resending.`,
    });
  }
}

