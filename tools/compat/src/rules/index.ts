import type { Difference } from '../difference.js';
import { betterErrorReporting } from './better-error-reporting.js';
import { changedBasePath } from './changed-base-path.js';
import { changedResponseType } from './changed-response-type.js';
import { changedSecurity } from './changed-security.js';
import { identifierFormatChanged } from './identifier-format-changed.js';
import { loweredMaxOccurs } from './lowered-max-occurs.js';
import { narrowedRequestType } from './narrowed-request-type.js';
import { newClosedResponseEnumValue } from './new-closed-response-enum-value.js';
import { newHttpVerb } from './new-http-verb.js';
import { newOpenEnumValue } from './new-open-enum-value.js';
import { newOptionalRequestParameter } from './new-optional-request-parameter.js';
import { newRequiredRequestField } from './new-required-request-field.js';
import { newResource } from './new-resource.js';
import { newRequestEnumValue } from './new-request-enum-value.js';
import { newResponseProperty } from './new-response-property.js';
import { newSuccessResponse } from './new-success-response.js';
import { propertyOrderChanged } from './property-order-changed.js';
import { renamedOperationId } from './renamed-operation-id.js';
import { removedOperation } from './removed-operation.js';
import { removedPath } from './removed-path.js';
import { removedRequestProperty } from './removed-request-property.js';
import { removedResponseEnumValue } from './removed-response-enum-value.js';
import { removedResponseProperty } from './removed-response-property.js';
import { removedSuccessResponse } from './removed-success-response.js';
import { reportFillerFields } from './report-filler-fields.js';
import { responsePropertyNoLongerRequired } from './response-property-no-longer-required.js';
import type { Rule } from './rule.js';
import { rewordedDocumentation } from './reworded-documentation.js';
import { unclassifiedChange } from './unclassified-change.js';
import { widenedRequestType } from './widened-request-type.js';

export type { Rule, Verdict } from './rule.js';

/**
 * The rule book, most specific first: the first rule that matches a difference judges it. The last one matches
 * everything, so every difference gets a named rule.
 */
export const rules: readonly Rule[] = [
  changedBasePath,
  removedPath,
  removedOperation,
  newResource,
  newHttpVerb,
  changedSecurity,
  removedSuccessResponse,
  betterErrorReporting,
  newSuccessResponse,
  renamedOperationId,
  rewordedDocumentation,
  reportFillerFields,
  identifierFormatChanged,
  loweredMaxOccurs,
  newRequiredRequestField,
  newOptionalRequestParameter,
  removedRequestProperty,
  narrowedRequestType,
  widenedRequestType,
  newRequestEnumValue,
  newResponseProperty,
  removedResponseProperty,
  responsePropertyNoLongerRequired,
  newOpenEnumValue,
  newClosedResponseEnumValue,
  removedResponseEnumValue,
  changedResponseType,
  propertyOrderChanged,
  unclassifiedChange,
];

export interface Judgement {
  rule: Rule;
  difference: Difference;
}

export function classify(difference: Difference): Judgement {
  const rule = rules.find((r) => r.matches(difference)) ?? unclassifiedChange;
  return { rule, difference };
}
