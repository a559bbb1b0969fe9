/**
 * The limits of the test hygiene rules (issue 29), in one place. README.md states the same rules in words; a change
 * here is a change of the rules, and goes there too.
 */

/** testTimeout / hookTimeout of a package's vitest config: vitest's defaults are 5 s per test and 10 s per hook. */
export const configLimitMs = 10_000;

/** The longest timeout a test file without the end-to-end marker may set (per test, describe, hook or vi.setConfig). */
export const unitFileLimitMs = 30_000;

/**
 * The longest timeout an end-to-end file may set. Every slow thing the marker names (a Prism start, a Chromium page,
 * a PostgreSQL cluster, a process killed and restarted, one install of a release) takes seconds on an idle 2-core
 * machine and under 30 s at the load CI reaches: 120 s is four times that, so reaching it means a hang, and a hang
 * costs at most a fifth of the 600 s the whole run may take. Work longer than that in one test or hook is split
 * into several tests.
 */
export const endToEndLimitMs = 120_000;

/**
 * What a release allows a hook (beforeAll/afterAll/…, or vi.setConfig's hookTimeout) of an end-to-end file whose
 * reason names a release: building, publishing and installing every package with five package managers is one step
 * that cannot be split into tests, and a build that missed turbo's cache rebuilds every package first (up to ten
 * minutes on two busy cores, measured by the release check). Its tests keep the 120 s of any end-to-end file.
 */
export const releaseHookLimitMs = 900_000;

/** An end-to-end reason that names a release (`// end-to-end: releases every package to a local registry…`). */
export const releaseReason = /\brelease/i;

/** The end-to-end marker must be within the first lines of the file, where a reader sees it. */
export const markerLines = 15;

/** `// end-to-end: <reason>`: the file is slow on purpose, and says what makes it so. */
export const endToEndMarker = /^\s*\/\/\s*end-to-end:(.*)$/;

/** `// real-time: <reason>`: a wait on the wall clock that is meant (on the line of the call or the line above). */
export const realTimeMarker = /\/\/\s*real-time:(.*)$/;

/** The names of a bounded poll helper (a sleep inside a loop in such a function is a poll for an event). */
export const pollHelperName = /^(waitFor|waitUntil)/;

export type RuleId = 'config-timeout' | 'file-timeout' | 'end-to-end-marker' | 'sleep';

export interface Problem {
  /** Relative to the checked root, with `/`. */
  file: string;
  line: number;
  rule: RuleId;
  message: string;
}

/** A marker's reason: what follows the colon, or undefined when nothing (or only the placeholder) does. */
export function markerReason(text: string | undefined): string | undefined {
  const reason = text?.trim();
  return reason && reason !== '<reason>' ? reason : undefined;
}
