// Redocly plugin with the house rules that the built-in and configurable rules cannot express.
import errorResponsesUseErrorBody from './rules/error-responses-use-error-body.js';
import postsTakeIdempotencyKey from './rules/posts-take-idempotency-key.js';
import oneSecurityRequirement from './rules/one-security-requirement.js';
import clientRulesPresent from './rules/client-rules-present.js';
import assumptionsDeclared from './rules/assumptions-declared.js';
import sensitiveMarked from './rules/sensitive-marked.js';

export default function paykitRules() {
  return {
    id: 'paykit',
    rules: {
      oas3: {
        'error-responses-use-error-body': errorResponsesUseErrorBody,
        'posts-take-idempotency-key': postsTakeIdempotencyKey,
        'one-security-requirement': oneSecurityRequirement,
        'client-rules-present': clientRulesPresent,
        'assumptions-declared': assumptionsDeclared,
        'sensitive-marked': sensitiveMarked,
      },
    },
  };
}
