/**
 * Problems the release check finds today in code this package's owners may not change, by check (`types
 * @paykit/payments` is the type check of that package, under both module settings and both package managers). A
 * check compares what it finds with its entry: a new problem fails it, and so does a listed one that is gone (then
 * delete it here). Each entry says what it waits on.
 */
export const knownProblems: Record<string, { waitsOn: string; problems: string[] }> = {};

export function expectedProblems(check: string): string[] {
  return knownProblems[check]?.problems ?? [];
}
