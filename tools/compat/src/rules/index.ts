import type { Difference } from '../difference.ts';
import { betterErrorReporting } from './better-error-reporting.ts';
import { changedBasePath } from './changed-base-path.ts';
import { changedResponseType } from './changed-response-type.ts';
import { changedSecurity } from './changed-security.ts';
import { identifierFormatChanged } from './identifier-format-changed.ts';
import { loweredMaxOccurs } from './lowered-max-occurs.ts';
import { narrowedRequestType } from './narrowed-request-type.ts';
import { newClosedResponseEnumValue } from './new-closed-response-enum-value.ts';
import { newHttpVerb } from './new-http-verb.ts';
import { newOpenEnumValue } from './new-open-enum-value.ts';
import { newOptionalRequestParameter } from './new-optional-request-parameter.ts';
import { newRequiredRequestField } from './new-required-request-field.ts';
import { newResource } from './new-resource.ts';
import { newResponseProperty } from './new-response-property.ts';
import { propertyOrderChanged } from './property-order-changed.ts';
import { removedOperation } from './removed-operation.ts';
import { removedPath } from './removed-path.ts';
import { removedRequestProperty } from './removed-request-property.ts';
import { removedResponseEnumValue } from './removed-response-enum-value.ts';
import { removedResponseProperty } from './removed-response-property.ts';
import { removedSuccessResponse } from './removed-success-response.ts';
import { reportFillerFields } from './report-filler-fields.ts';
import { responsePropertyNoLongerRequired } from './response-property-no-longer-required.ts';
import type { Rule } from './rule.ts';
import { rewordedDocumentation } from './reworded-documentation.ts';
import { unclassifiedChange } from './unclassified-change.ts';

export type { Rule, Verdict } from './rule.ts';

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
  rewordedDocumentation,
  reportFillerFields,
  identifierFormatChanged,
  loweredMaxOccurs,
  newRequiredRequestField,
  newOptionalRequestParameter,
  removedRequestProperty,
  narrowedRequestType,
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
