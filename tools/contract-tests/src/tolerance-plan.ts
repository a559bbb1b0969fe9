import type { ExampleRequest } from './example-request.js';
import { undoEdits, type JsonEdit } from './json-edits.js';
import { allJsonMutations, jsonMutations, type JsonMutation, type JsonMutationContext } from './json-mutations.js';
import type { ProxiedRequest, ProxiedResponse, ProxyPlan } from './mutating-proxy.js';

/** A change of a text answer (a report), with the way back. */
export interface TextMutation {
  name: string;
  /** The mutated text, or undefined when the answer is not one this mutation applies to. */
  apply(text: string, mediaType: string): { text: string; restore: (text: string) => string } | undefined;
}

/**
 * New or repurposed filler fields in reports: a column added at the end of every CSV line, with a heading on the
 * first. Restoring drops the last column again.
 */
export const reportFillerFields: TextMutation = {
  name: 'report-filler-fields',
  apply(text, mediaType) {
    if (mediaType !== 'text/csv' || !text.trim()) return undefined;
    const ending = text.endsWith('\n') ? '\n' : '';
    const lines = text.slice(0, text.length - ending.length).split('\n');
    const mutated = lines.map((line, i) => `${line},${i === 0 ? 'Filler 9' : `filler value ${i}`}`).join('\n') + ending;
    return {
      text: mutated,
      restore: (delivered) => {
        const end = delivered.endsWith('\n') ? '\n' : '';
        return delivered.slice(0, delivered.length - end.length).split('\n').map((line) => line.slice(0, line.lastIndexOf(','))).join('\n') + end;
      },
    };
  },
};

/** One tolerated change: a response mutation, the new optional request parameter, or several (all together). */
export interface ToleranceRule {
  name: string;
  response?: JsonMutation;
  text?: TextMutation;
  /** The client sends a parameter the spec does not have yet; the proxy (the newer server) takes it off. */
  newRequestParameter?: boolean;
}

export const newOptionalParameter = { name: 'paykitNewOption', value: 'enabled' } as const;

export const toleranceRules: readonly ToleranceRule[] = [
  ...jsonMutations.map((response) => ({ name: response.name, response })),
  { name: reportFillerFields.name, text: reportFillerFields },
  { name: 'new-optional-parameters', newRequestParameter: true },
  { name: allJsonMutations.name, response: allJsonMutations, text: reportFillerFields, newRequestParameter: true },
];

/** What a mutation run did, read after the call. */
export interface MutationReport {
  /** Whether the rule found something to change (a body without links gives the link rule nothing). */
  applied: boolean;
  edits: JsonEdit[];
  /** Takes the mutation back from a body as the client returned it. */
  restore: (body: unknown) => unknown;
  /** The mutated body as the client received it (parsed), or undefined when nothing was mutated. */
  delivered: unknown;
}

const isJson = (headers: ProxiedResponse['headers']) => /\bjson\b/i.test(String(headers['content-type'] ?? ''));

/**
 * The request with the new optional parameter added, in the place the operation takes parameters: the query of a
 * request without a body (query parameters are not allowed on POST, PUT and PATCH), or a property of a JSON object
 * body. Undefined when the operation has neither.
 */
export function withNewParameter(method: string, request: ExampleRequest): { request: ExampleRequest; extraQuery?: Record<string, string> } | undefined {
  const { name, value } = newOptionalParameter;
  if (request.body === undefined && !['POST', 'PUT', 'PATCH'].includes(method)) {
    return { request, extraQuery: { [name]: value } };
  }
  if (request.body && typeof request.body === 'object' && !Array.isArray(request.body)) {
    return { request: { ...request, body: { ...(request.body as Record<string, unknown>), [name]: value } } };
  }
  return undefined;
}

function stripNewParameter(request: ProxiedRequest, seen: () => void): ProxiedRequest {
  const url = new URL(request.url, 'http://proxy.invalid');
  let { body } = request;
  if (url.searchParams.get(newOptionalParameter.name) === newOptionalParameter.value) {
    url.searchParams.delete(newOptionalParameter.name);
    seen();
  }
  if (body.length > 0 && /\bjson\b/i.test(String(request.headers['content-type'] ?? ''))) {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && (parsed as Record<string, unknown>)[newOptionalParameter.name] === newOptionalParameter.value) {
      delete (parsed as Record<string, unknown>)[newOptionalParameter.name];
      body = Buffer.from(JSON.stringify(parsed));
      seen();
    }
  }
  return { ...request, url: url.pathname + url.search, body };
}

/** The proxy plan of one rule, and a report of what it did once the call is over. */
export function tolerancePlan(rule: ToleranceRule, context: JsonMutationContext, prefer: string | undefined): { plan: ProxyPlan; report: () => MutationReport } {
  const report: MutationReport = { applied: false, edits: [], delivered: undefined, restore: (body) => undoEdits(body, report.edits) };
  const plan: ProxyPlan = { ...(prefer ? { prefer } : {}) };
  if (rule.newRequestParameter) {
    plan.rewriteRequest = (request) =>
      stripNewParameter(request, () => {
        report.applied = true;
      });
  }
  const mutation = rule.response;
  const textMutation = rule.text;
  if (mutation || textMutation) {
    plan.mutateResponse = (response) => {
      const text = response.body.toString('utf8');
      const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const changedText = textMutation?.apply(text, mediaType);
      if (changedText) {
        report.applied = true;
        report.delivered = changedText.text;
        report.restore = (body) => (typeof body === 'string' ? changedText.restore(body) : body);
        return { ...response, body: Buffer.from(changedText.text) };
      }
      if (!mutation || !isJson(response.headers) || !text) return response;
      const body = JSON.parse(text) as unknown;
      const edits = mutation.apply(body, context);
      const mutatedText = JSON.stringify(body);
      if (edits.length > 0 || mutatedText !== JSON.stringify(JSON.parse(text))) report.applied = true;
      report.edits = edits;
      report.delivered = body;
      return { ...response, body: Buffer.from(mutatedText) };
    };
  }
  return { plan, report: () => report };
}
