// Copied into a merchant project and run there: imports each entry point given as JSON ([{ specifier, kind }]) the
// way an ES module of the merchant would, and prints one JSON line of results, with the names each module exports.
// An entry that loads but exports nothing is reported too: it would be an empty shell.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entries = JSON.parse(process.argv[2] ?? '[]');
const results = [];
for (const { specifier, kind } of entries) {
  try {
    if (kind === 'module') {
      const namespace = await import(specifier);
      const names = Object.keys(namespace);
      results.push({ specifier, ok: names.length > 0, detail: names.length > 0 ? `${names.length} exports` : 'exports nothing', names: names.sort() });
    } else if (kind === 'json') {
      const { default: value } = await import(specifier, { with: { type: 'json' } });
      const ok = value !== null && typeof value === 'object';
      results.push({ specifier, ok, detail: ok ? 'JSON object' : `JSON ${typeof value}` });
    } else {
      const size = statSync(fileURLToPath(import.meta.resolve(specifier))).size;
      results.push({ specifier, ok: size > 0, detail: `${size} bytes` });
    }
  } catch (error) {
    results.push({ specifier, ok: false, detail: String(error?.message ?? error).split('\n')[0] });
  }
}
console.log(JSON.stringify(results));
