// What is secret is marked once, in the contract: `x-paykit-sensitive: <kind>` on the property, parameter or security
// scheme where a card number, security code, key or password travels (tools/contracts reads the marks, codegen writes
// them into every package that masks). This rule keeps the marks complete: every property or parameter whose name
// looks like card data or a credential carries a mark, a kind or an explicit `false` whose description says why
// ("Not sensitive: ..."); every security scheme that sends a credential in a request is marked; every mark is a kind.
// Whether marks agree with each other across the contract (one kind per name) is checked by tools/contracts, which
// `pnpm generate` runs.
const mark = 'x-paykit-sensitive';
const markFrom = 'x-paykit-sensitive-from';
const kinds = ['card-number', 'card-security-code', 'card-expiry', 'secret'];
const kindList = `${kinds.join(', ')}, or false`;

/** A name as lower-case words: `maskedCardNumber4Digits` -> `masked card number 4 digits`, `X-Api-Key` -> `x api key`. */
export function wordsOf(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
    .join(' ');
}

/**
 * Names that look like card data or a credential, on their words. Wider than what is secret on purpose: a name that
 * matches and is not secret (a token that works only with the secret key, the date a password changed) says so with
 * `x-paykit-sensitive: false`, so that every such decision is written down.
 */
const looksSensitive = [
  /\bcard (number|num|no)\b/,
  /\bpan\b/,
  /\b(cvn|cvv|cvc|csc)2?\b/,
  /\bsecurity code\b/,
  /\b(expiry|expiration)\b/,
  /\bpin\b/,
  /\bpass(word|wd|phrase)\b/,
  /\bpwd?\b/,
  /\bsecret\b/,
  /\b(api|private|secret|publishable|access|signing|client) key\b/,
  /\bapikey\b/,
  /\btoken\b/,
  /\bcredentials?\b/,
  /\bauthorization\b/,
];

export const looksLikeCardDataOrCredential = (name) => looksSensitive.some((pattern) => pattern.test(wordsOf(name)));

/** Security scheme types whose credential travels in the request (a header, the query or a cookie). */
const sendsCredential = new Set(['http', 'apiKey', 'oauth2', 'openIdConnect']);

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const validValue = (value) => value === false || kinds.includes(value);
const givesReason = (description) => typeof description === 'string' && /\bnot sensitive\b/i.test(description);

export const messages = {
  unmarked: (what, name) =>
    `The ${what} \`${name}\` looks like card data or a credential: mark it \`${mark}: <kind>\` (${kinds.join(', ')}), or \`${mark}: false\` with the reason in its description.`,
  invalid: `\`${mark}\` must be one of ${kindList}.`,
  noReason: `\`${mark}: false\` needs its reason in the description, in a sentence that starts "Not sensitive".`,
  schemeUnmarked: (name) => `The security scheme \`${name}\` sends a credential in every request: mark it \`${mark}: secret\` (or another kind).`,
  fromInvalid: `\`${markFrom}\` must name another property of the same object.`,
};

/**
 * The node a property's schema stands for, with the keywords written beside each `$ref` laid over its target's (the
 * nearest winning, as OpenAPI 3.1 reads them).
 */
function effective(node, ctx) {
  const layers = [];
  let current = node;
  const seen = new Set();
  while (isObject(current)) {
    layers.push(current);
    if (typeof current.$ref !== 'string' || seen.has(current.$ref)) break;
    seen.add(current.$ref);
    const resolved = ctx.resolve(current);
    if (!resolved || resolved.node === undefined) break;
    current = resolved.node;
  }
  return Object.assign({}, ...layers.reverse());
}

export default function sensitiveMarked() {
  return {
    Schema: {
      enter(schema, ctx) {
        if (mark in schema && !validValue(schema[mark])) ctx.report({ message: messages.invalid, location: ctx.location.child(mark).key() });
        if (!isObject(schema.properties)) return;
        for (const [name, raw] of Object.entries(schema.properties)) {
          const at = ctx.location.child(['properties', name]);
          const property = effective(raw, ctx);
          if (markFrom in property) {
            if (typeof property[markFrom] !== 'string' || property[markFrom] === name || !(property[markFrom] in schema.properties)) {
              ctx.report({ message: messages.fromInvalid, location: at.key() });
            }
            continue;
          }
          if (!(mark in property)) {
            if (looksLikeCardDataOrCredential(name)) ctx.report({ message: messages.unmarked('property', name), location: at.key() });
            continue;
          }
          // A value written beside a `$ref` is not visited as a schema of its own: check it here.
          if (isObject(raw) && typeof raw.$ref === 'string' && mark in raw && !validValue(raw[mark])) ctx.report({ message: messages.invalid, location: at.child(mark).key() });
          if (property[mark] === false && !givesReason(property.description)) ctx.report({ message: messages.noReason, location: at.key() });
        }
      },
    },
    Parameter: {
      enter(parameter, ctx) {
        if (!(mark in parameter)) {
          if (typeof parameter.name === 'string' && looksLikeCardDataOrCredential(parameter.name)) {
            ctx.report({ message: messages.unmarked('parameter', parameter.name), location: ctx.location.key() });
          }
          return;
        }
        if (!validValue(parameter[mark])) ctx.report({ message: messages.invalid, location: ctx.location.child(mark).key() });
        else if (parameter[mark] === false && !givesReason(parameter.description)) ctx.report({ message: messages.noReason, location: ctx.location.key() });
      },
    },
    SecurityScheme: {
      enter(scheme, ctx) {
        if (!(mark in scheme)) {
          if (sendsCredential.has(scheme.type)) ctx.report({ message: messages.schemeUnmarked(ctx.key), location: ctx.location.key() });
          return;
        }
        if (!validValue(scheme[mark])) ctx.report({ message: messages.invalid, location: ctx.location.child(mark).key() });
        else if (scheme[mark] === false && !givesReason(scheme.description)) ctx.report({ message: messages.noReason, location: ctx.location.key() });
      },
    },
  };
}
