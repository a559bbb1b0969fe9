export interface PackageManifest {
  name: string;
  version: string;
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  [field: string]: unknown;
}

export interface EntryPoint {
  /** The `exports` key: `.`, `./webhooks`, `./package.json`... */
  key: string;
  /** What a merchant imports: `@paykit/payments/webhooks`. */
  specifier: string;
  /** `module`: JavaScript with types; `json`: imported with `{ type: 'json' }`; `file`: resolved, not imported. */
  kind: 'module' | 'json' | 'file';
  /** For modules, the sample that uses the entry: `samples/<package folder>/<sampleName>.ts`. */
  sampleName: string;
}

/** Every entry point a package exports, as a merchant names it. */
export function entryPoints(manifest: PackageManifest): EntryPoint[] {
  return Object.entries(manifest.exports ?? {}).map(([key, target]) => {
    const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
    const file = typeof target === 'string' ? target : (target.default ?? target.import ?? '');
    const typed = typeof target !== 'string' && target.types !== undefined;
    const kind = typed || file.endsWith('.js') ? 'module' : file.endsWith('.json') ? 'json' : 'file';
    const sampleName = key === '.' ? 'index' : key.slice(2).replace(/\//g, '-');
    return { key, specifier, kind, sampleName };
  });
}

/** `@paykit/file-exchange-soap` -> `file-exchange-soap`: the folder of its samples and of its merchant projects. */
export function shortName(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, '');
}
