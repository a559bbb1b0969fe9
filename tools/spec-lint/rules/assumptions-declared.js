// Where a contract goes beyond the reference, it says so: the root `x-paykit-assumptions` holds each assumption
// (`title`, `assume`, `confirm`, `keywords`) under a key, and `x-paykit-assumption: <key>` (or a list of keys) marks
// every operation, parameter, webhook or schema it concerns. The docs turn both into visible notes and the "Confirm
// with the operator" page. This rule checks each entry's shape, that every mark names an entry, and that every entry
// is marked somewhere (an assumption nobody can find is as bad as none).
const catalogue = 'x-paykit-assumptions';
const marker = 'x-paykit-assumption';
const keyPattern = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const texts = ['title', 'assume', 'confirm'];

const isText = (value) => typeof value === 'string' && value.trim() !== '';

const markable = ['Info', 'PathItem', 'Operation', 'Parameter', 'Header', 'RequestBody', 'Response', 'Schema', 'SecurityScheme', 'Tag'];

export default function assumptionsDeclared() {
  /** @type {Set<string>} */
  let declared = new Set();
  /** @type {Set<string>} */
  let used = new Set();
  function checkMark(node, ctx) {
    if (!node || typeof node !== 'object' || !(marker in node)) return;
    const value = node[marker];
    const location = ctx.location.child(marker).key();
    const keys = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string')) {
      ctx.report({ message: `\`${marker}\` must be an assumption key or a list of them.`, location });
      return;
    }
    for (const key of keys) {
      used.add(key);
      if (!declared.has(key)) ctx.report({ message: `\`${marker}\` names \`${key}\`, which the root \`${catalogue}\` does not hold.`, location });
    }
  }

  return {
    Root: {
      enter(root, ctx) {
        declared = new Set();
        used = new Set();
        let entries = root[catalogue];
        if (entries === undefined) return;
        if (entries && typeof entries === 'object' && typeof entries.$ref === 'string') entries = ctx.resolve(entries).node;
        const where = ctx.location.child(catalogue);
        if (!entries || typeof entries !== 'object' || Array.isArray(entries)) {
          ctx.report({ message: `\`${catalogue}\` must be an object of assumptions by key.`, location: where.key() });
          return;
        }
        for (const [key, entry] of Object.entries(entries)) {
          declared.add(key);
          const at = where.child(key);
          if (!keyPattern.test(key)) ctx.report({ message: `The assumption key \`${key}\` must be kebab-case.`, location: at.key() });
          if (!entry || typeof entry !== 'object') {
            ctx.report({ message: `The assumption \`${key}\` must be an object with ${texts.join(', ')} and keywords.`, location: at.key() });
            continue;
          }
          for (const field of texts) {
            if (!isText(entry[field])) ctx.report({ message: `The assumption \`${key}\` needs a \`${field}\` text.`, location: at.key() });
          }
          if (!Array.isArray(entry.keywords) || entry.keywords.length === 0 || !entry.keywords.every(isText)) {
            ctx.report({ message: `The assumption \`${key}\` needs \`keywords\`: a list of phrases that name what it assumes.`, location: at.key() });
          }
        }
      },
      leave(_root, ctx) {
        for (const key of declared) {
          if (!used.has(key)) {
            ctx.report({ message: `The assumption \`${key}\` is marked nowhere: add \`${marker}: ${key}\` where it applies.`, location: ctx.location.child([catalogue, key]).key() });
          }
        }
      },
    },
    // Every node type a mark may sit on (visiting `SpecExtension` instead misses marks under $refs when other rules run).
    ...Object.fromEntries(markable.map((type) => [type, { enter: checkMark }])),
  };
}
