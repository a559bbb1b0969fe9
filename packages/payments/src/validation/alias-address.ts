import { inputError } from '../errors/payments-error.js';

/**
 * The alias rules that depend on the merchant rather than on the spec: the service lowercases the address, so the
 * client does it first (what is checked is what is registered), and the domain must be one the caller configured
 * for its facility. Length and allowed characters come from the spec's schema, checked afterwards.
 */
export interface AliasAddressOptions {
  /** Domains configured on the facility. `*.example.com` also allows any subdomain of example.com. */
  aliasDomains?: readonly string[];
}

function domainAllowed(domain: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const rule = entry.toLowerCase();
    return rule.startsWith('*.') ? domain === rule.slice(2) || domain.endsWith(rule.slice(1)) : domain === rule;
  });
}

/** Lowercases `aliasAddress` in a request body and checks its domain; returns the body to send. */
export function normaliseAliasAddress(body: unknown, options: AliasAddressOptions): unknown {
  const address = (body as { aliasAddress?: unknown } | null)?.aliasAddress;
  if (typeof address !== 'string') return body;
  const lowered = address.toLowerCase();
  const at = lowered.lastIndexOf('@');
  const domain = at > 0 ? lowered.slice(at + 1) : '';
  if (!domain) {
    throw inputError('aliasAddress must have the form <local part>@<domain>.', [
      { fieldName: 'aliasAddress', fieldValue: address, messages: ['must have the form <local part>@<domain>'] },
    ]);
  }
  if (options.aliasDomains && !domainAllowed(domain, options.aliasDomains)) {
    const message = `domain ${domain} is not one of the configured alias domains (${options.aliasDomains.join(', ')})`;
    throw inputError(`aliasAddress: ${message}.`, [{ fieldName: 'aliasAddress', fieldValue: address, messages: [message] }]);
  }
  return { ...(body as object), aliasAddress: lowered };
}
