import { mayActFor } from '../handler-context.js';
import { ApiError, invalidField } from '../rules/api-error.js';
import { cardSchemes, paymentMethodList } from '../generated/facility-defaults.js';
import type { Facility, HandlerContext, HandlerTable, SandboxBusiness } from '../handler-context.js';
import { page } from '../rules/links.js';

/**
 * The facility: its businesses, payment methods, key and card lookups. The reference does not publish the fields of
 * the facility, a business, an API key, the accepted cards, the surcharges or a card scheme, so these answers carry
 * only what the contract allows without inventing: their `links`, and a business's `supplierBusinessCode` (the
 * reference says accepted values come from the businesses resource).
 */

export const defaultBusiness: SandboxBusiness = { supplierBusinessCode: 'TEST_BUSINESS' };
export const defaultAliasDomains = ['pay.example.com'];

type Node = Record<string, unknown>;

/**
 * The payment methods `GET /methods` lists unless configured: the contract's own example of the method list (a
 * generated constant), so that the sandbox serves the methods and funding accounts the docs show.
 */
function exampleMethods(): Node[] {
  const value = paymentMethodList as { data?: Node[] } | undefined;
  return structuredClone(value?.data ?? []).map(({ links: _, ...method }) => method);
}

export function createFacility(
  options: { businesses?: SandboxBusiness[]; aliasDomains?: string[]; methods?: Node[] },
): Facility {
  const businesses = new Map(
    (options.businesses ?? [defaultBusiness]).map((b) => [
      b.supplierBusinessCode,
      {
        supplierBusinessCode: b.supplierBusinessCode,
        currency: b.currency ?? 'AUD',
        surcharges: b.surcharges ?? {},
        // Every scheme of the contract's `CardSchemeName` enum unless configured.
        acceptedSchemes: b.acceptedSchemes ?? [...cardSchemes],
        aliasDisplayName: b.aliasDisplayName ?? `${b.supplierBusinessCode} ****0000`,
      },
    ]),
  );
  return { businesses, aliasDomains: options.aliasDomains ?? defaultAliasDomains, methods: options.methods ?? exampleMethods() };
}

/** A business named in the path: unknown, or outside a restricted key's list, is "nothing matches" (404). */
export function businessInPath(context: HandlerContext, code: string) {
  const business = context.core.facility.businesses.get(code);
  if (!business || !mayActFor(context.caller, code)) throw new ApiError(404, `No business ${code} is available to this key.`);
  return business;
}

/** A business named in the body: unknown, or outside a restricted key's list, is invalid content (422). */
export function businessInBody(context: HandlerContext, code: unknown) {
  const business = typeof code === 'string' ? context.core.facility.businesses.get(code) : undefined;
  if (!business) throw invalidField('supplierBusinessCode', code, code === undefined ? 'is required' : 'is not a business of the facility');
  if (!mayActFor(context.caller, business.supplierBusinessCode)) throw invalidField('supplierBusinessCode', code, 'is outside the businesses this key may act for');
  return business;
}

const onlyLinks = (context: HandlerContext, path: string) => ({ links: context.links.self(path) });

export const facilityHandlers: HandlerTable = {
  getFacility: (context) => ({ status: 200, json: onlyLinks(context, '/') }),
  getLatestApiKey: (context) => ({ status: 200, json: onlyLinks(context, '/api-keys/latest') }),
  getBusiness: (context) => {
    const { supplierBusinessCode } = businessInPath(context, context.params.supplierBusinessCode!);
    return { status: 200, json: { supplierBusinessCode, links: context.links.self(`/businesses/${encodeURIComponent(supplierBusinessCode)}`) } };
  },
  listBusinesses: (context) => {
    const visible = [...context.core.facility.businesses.keys()].filter((code) => mayActFor(context.caller, code));
    const items = visible.map((code) => ({ supplierBusinessCode: code, links: context.links.self(`/businesses/${encodeURIComponent(code)}`) }));
    return { status: 200, json: page(items, context.links, '/businesses', context.query) };
  },
  listBusinessAcceptedCards: (context) => {
    const { supplierBusinessCode } = businessInPath(context, context.params.supplierBusinessCode!);
    return { status: 200, json: onlyLinks(context, `/businesses/${encodeURIComponent(supplierBusinessCode)}/accepted-cards`) };
  },
  listBusinessCardSurcharges: (context) => {
    const { supplierBusinessCode } = businessInPath(context, context.params.supplierBusinessCode!);
    return { status: 200, json: onlyLinks(context, `/businesses/${encodeURIComponent(supplierBusinessCode)}/card-surcharges`) };
  },
  queryBusinessCardSurcharge: (context) => {
    const { supplierBusinessCode } = businessInPath(context, context.params.supplierBusinessCode!);
    return { status: 200, json: onlyLinks(context, `/businesses/${encodeURIComponent(supplierBusinessCode)}/query-card-surcharge`) };
  },
  listPaymentMethods: (context) => {
    const items = context.core.facility.methods.map((method) => ({ ...method, links: [] }));
    return { status: 200, json: page(items, context.links, '/methods', context.query) };
  },
  getCreditCardScheme: (context) => ({
    status: 200,
    json: onlyLinks(context, `/credit-cards/card-schemes/${encodeURIComponent(context.params.cardBIN!)}`),
  }),
};
