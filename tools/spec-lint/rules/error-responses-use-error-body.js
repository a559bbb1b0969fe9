// Every 4xx/5xx response of an operation must describe its JSON body with the shared error schema, so that clients
// can decode every failure one way. Option `schema`: the component name of the error body (default `Error`).
const isErrorStatus = (code) => /^[45]/.test(String(code)) || code === 'default';

export default function errorResponsesUseErrorBody(opts) {
  const schemaName = opts.schema ?? 'Error';
  const refPattern = new RegExp(`(^|/)${schemaName}\\.ya?ml$|#/components/schemas/${schemaName}$`);
  return {
    Operation: {
      enter(operation, ctx) {
        for (const [code, rawResponse] of Object.entries(operation.responses ?? {})) {
          if (!isErrorStatus(code)) continue;
          const { node: response, location } = ctx.resolve(rawResponse);
          const where = location ?? ctx.location.child(['responses', code]);
          const media = response?.content?.['application/json'];
          const ref = media?.schema?.$ref;
          if (!ref || !refPattern.test(ref)) {
            ctx.report({
              message: `Error response ${code} must have an application/json body that refs the ${schemaName} schema.`,
              location: where,
            });
          }
        }
      },
    },
  };
}
