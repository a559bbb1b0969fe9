/**
 * A difference is a neutral fact about what changed between two versions of a contract. It says nothing about
 * whether the change is acceptable: that is the rules' job, so the same fact can be judged in one place.
 */

/** Who sends the data: the client sends requests and receives responses (and webhook payloads). */
export type Direction = 'request' | 'response';

/** How a constraint or type moved: `narrower` accepts fewer values than before, `wider` more. */
export type Effect = 'narrower' | 'wider' | 'changed';

export type DifferenceKind =
  | 'base-path-changed'
  | 'path-added'
  | 'path-removed'
  | 'operation-added'
  | 'operation-removed'
  | 'security-changed'
  | 'response-added'
  | 'response-removed'
  | 'media-type-added'
  | 'media-type-removed'
  | 'property-added'
  | 'property-removed'
  | 'property-required-changed'
  | 'property-order-changed'
  | 'type-changed'
  | 'constraint-changed'
  | 'enum-values-added'
  | 'enum-values-removed'
  | 'variant-added'
  | 'variant-removed'
  | 'documentation-changed'
  | 'other-changed';

export interface Difference {
  kind: DifferenceKind;
  /** Where, in words a reader can find in the contract, with component names kept (`GET /x response 200 ...`). */
  location: string;
  /** What changed, for the message of a breaking change. */
  detail: string;
  direction?: Direction;
  /** For an added property/parameter/body: whether it is required. For a required-changed: required now. */
  required?: boolean;
  effect?: Effect;
  /** The schema keyword (or XSD facet/attribute) that changed. */
  keyword?: string;
  /** HTTP status of the response the difference belongs to. */
  status?: string;
  /** The enum is marked open (`x-paykit-open-enum: [known values]`) in the new version. */
  open?: boolean;
  /** Both versions describe an identifier (see `isIdentifier`); `maxLengthAfter` is its new maximum length. */
  identifier?: boolean;
  maxLengthAfter?: number;
  /** Inside a report (a `text/csv` response); `filler` when inside a filler column of it. */
  report?: boolean;
  filler?: boolean;
  /** Order matters on the wire (an XSD sequence), unlike JSON object members. */
  ordered?: boolean;
}
