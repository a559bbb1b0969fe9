// Each resource of the service accepts exactly one credential type; an operation whose effective security lists
// none, several alternatives, or several schemes at once cannot be right. Webhooks are calls the service makes to
// the merchant, not resources of the service, so they are not checked.
export default function oneSecurityRequirement() {
  let rootSecurity;
  return {
    Root: {
      enter(root) {
        rootSecurity = root.security;
      },
    },
    Paths: {
      PathItem: {
        Operation: {
          enter(operation, ctx) {
            const security = operation.security ?? rootSecurity;
            const ok =
              Array.isArray(security) && security.length === 1 && Object.keys(security[0] ?? {}).length === 1;
            if (!ok) {
              ctx.report({
                message: 'Operations must require exactly one security scheme (one requirement with one scheme).',
                location: operation.security ? ctx.location.child('security') : ctx.location.key(),
              });
            }
          },
        },
      },
    },
  };
}
