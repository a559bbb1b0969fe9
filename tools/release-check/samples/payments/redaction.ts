// What the client hides in its hooks and errors, applied by a tool that records traffic.
import { maskCardNumbers, redacted, redactHeaders } from '@paykit/payments/redaction';

export const headers: Record<string, string> = redactHeaders({ Authorization: 'Basic c2tfdGVzdDo=', Accept: 'application/json' });
export const text: string = maskCardNumbers('card 4111111111111111');
export const marker: string = redacted;

// @ts-expect-error headers are a record of strings (or Headers).
redactHeaders(42);
