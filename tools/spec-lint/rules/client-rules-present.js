// The reference's rules that OpenAPI has no keyword for (retry statuses and wait, limits, lifetimes) live in the
// contract's root `x-paykit-rules` object, and the clients and mocks are generated from it. This rule checks that the
// rules a contract must carry (the `required` option, from the contract registry) are there, each with a
// description for readers; @paykit/contracts checks the shape of their values when it reads them.
const extension = 'x-paykit-rules';

export default function clientRulesPresent({ required = [] } = {}) {
  return {
    Root: {
      enter(root, ctx) {
        const rules = root[extension];
        if (!rules || typeof rules !== 'object' || Array.isArray(rules)) {
          ctx.report({ message: `The contract must carry its rules in a root \`${extension}\` object.`, location: ctx.location.key() });
          return;
        }
        for (const name of required) {
          const rule = rules[name];
          if (!rule || typeof rule !== 'object') {
            ctx.report({ message: `\`${extension}\` must hold the rule \`${name}\`.`, location: ctx.location.child(extension).key() });
          } else if (typeof rule.description !== 'string' || !rule.description.trim()) {
            ctx.report({ message: `The rule \`${name}\` needs a description.`, location: ctx.location.child([extension, name]).key() });
          }
        }
      },
    },
  };
}
