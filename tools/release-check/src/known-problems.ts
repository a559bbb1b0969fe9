/**
 * Problems the release check finds today in code this package's owners may not change, by check: `metadata`,
 * `files`, `dependencies`, `imports`, `install` and `types` followed by a package's name (`types @paykit/payments`),
 * `browser <package>/<sample>`, and `install` alone for what a project's links and lockfile show. A check compares
 * what it finds with its entry: a new problem fails it, and so does a listed one that is gone (then delete it here).
 * The type check runs once per project and module setting for every package: it expects the entries of all packages
 * together (each diagnostic names its file or third-party package). Each entry says what it waits on.
 */
export const knownProblems: Record<string, { waitsOn: string; problems: string[] }> = {};

export function expectedProblems(check: string): string[] {
  return knownProblems[check]?.problems ?? [];
}
