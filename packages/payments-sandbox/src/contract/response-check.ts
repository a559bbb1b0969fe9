import type { OperationSpec, SandboxContract } from './contract.js';
import type { FieldChecker } from './field-checker.js';
import type { StoredResponse } from '../state/state.js';

/**
 * Checks what the sandbox sends against the contract (the tests turn it on and fail on any problem): the status is
 * declared for the operation, the content type is declared for the status, and the body is valid against its
 * schema. Answers to addresses the contract does not have are checked against the error body.
 */
export function responseProblems(validator: FieldChecker, contract: SandboxContract, operation: OperationSpec | undefined, response: StoredResponse): string[] {
  const where = operation ? `${operation.operationId} ${response.status}` : `no operation, ${response.status}`;
  const media = response.headers['Content-Type']?.split(';')[0]?.trim();
  let pointer: string | undefined = '#/components/schemas/Error';
  if (operation) {
    const declared = operation.responses.get(String(response.status));
    if (!declared) return [`${where}: the status is not declared`];
    if (response.body === undefined) return declared.media.size === 0 || response.status === 204 ? [] : [`${where}: no body, though the contract declares one`];
    if (declared.media.size === 0) return [`${where}: a body, though the contract declares none`];
    if (!media || !declared.media.has(media)) return [`${where}: content type ${media} is not declared`];
    pointer = declared.media.get(media);
  } else if (response.body === undefined) return [];
  if (!pointer || !media?.endsWith('json')) return [];
  return validator.check(pointer, JSON.parse(response.body)).map((p) => `${where}: ${p.fieldName || '(body)'} ${p.messages.join(', ')}`);
}

/** Checks a webhook notification body against the request body the contract's `webhooks` entry declares. */
export function notificationProblems(validator: FieldChecker, contract: SandboxContract, eventType: string, body: unknown): string[] {
  if (!contract.webhooks.has(eventType)) return [`webhook ${eventType}: the contract declares no such event`];
  const pointer = contract.webhooks.get(eventType);
  if (pointer === undefined) return [];
  return validator.check(pointer, body).map((p) => `webhook ${eventType}: ${p.fieldName || '(body)'} ${p.messages.join(', ')}`);
}
