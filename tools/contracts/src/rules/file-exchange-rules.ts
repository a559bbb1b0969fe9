import type { OpenApiDocument } from '../openapi/document.js';
import { readRules, RulesError, type Rules } from './read-rules.js';

/** The reference's file exchange rules that OpenAPI has no keyword for, as `x-paykit-rules` in specs/file-exchange. */
export const fileExchangeRuleShapes = {
  /** Client rule: what is retried, how far apart at least, and for how long at most. */
  retry: { statuses: 'statuses', networkErrors: 'boolean', minimumWait: 'duration', window: 'duration' },
  /** Download attempts per file before the service refuses (with `exhaustedStatus`), and the list's cap. */
  downloads: { maxAttemptsPerFile: 'count', exhaustedStatus: 'status', listCap: 'count' },
  /** Uploads the service takes at once; more get `busyStatus`. */
  uploads: { maxConcurrent: 'count', busyStatus: 'status' },
} as const;

export type FileExchangeRules = Rules<typeof fileExchangeRuleShapes>;

export function readFileExchangeRules(document: OpenApiDocument): FileExchangeRules {
  return readRules(document, fileExchangeRuleShapes, 'file-exchange');
}

/**
 * The file-name rule, from the contract's `FileName` schema (a `pattern`, so OpenAPI carries it): the same pattern
 * Prism validates against and the docs show.
 */
export function readFileNamePattern(document: OpenApiDocument): string {
  const schema = document.components?.schemas?.FileName as { pattern?: unknown } | undefined;
  if (typeof schema?.pattern !== 'string') throw new RulesError('file-exchange: components.schemas.FileName has no pattern');
  return schema.pattern;
}
