import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export class ChangesetError extends Error {
  override name = 'ChangesetError';
}

/**
 * A reviewed acceptance of one breaking difference, written in a changeset's body as
 * `compat-acknowledge: <rule> at \`<location>\`: <reason>`. Being in the body, it lands in the CHANGELOG.
 */
export interface Acknowledgement {
  rule: string;
  /** Exactly as the gate prints it. */
  location: string;
  reason: string;
  /** The changeset file and the 1-based line the acknowledgement is on. */
  file: string;
  line: number;
  /** Packages named by the changeset's frontmatter: the acknowledgement only counts for their contracts. */
  packages: readonly string[];
}

export interface PendingChangesets {
  /** Package name -> the bump a pending changeset asks for. */
  bumps: Map<string, string>;
  acknowledgements: Acknowledgement[];
}

const ACKNOWLEDGE_KEYWORD = /^\s*(?:[-*]\s+)?compat-acknowledge\s*:/i;
const ACKNOWLEDGEMENT = /^\s*(?:[-*]\s+)?compat-acknowledge: ([a-z0-9][a-z0-9-]*) at `([^`]+)`: (.*\S)\s*$/;
export const ACKNOWLEDGEMENT_SYNTAX = 'compat-acknowledge: <rule> at `<location>`: <reason>';

/** A changeset body without its acknowledgement lines: the text for readers, who see the acknowledgements apart. */
export function withoutAcknowledgements(body: string): string {
  return body
    .split('\n')
    .filter((line) => !ACKNOWLEDGE_KEYWORD.test(line))
    .join('\n');
}

/** The acknowledgements in a changeset body; `firstLine` is the file line the body starts on. */
function acknowledgementsIn(body: string, file: string, firstLine: number, packages: string[]): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  body.split(/\r?\n/).forEach((text, index) => {
    if (!ACKNOWLEDGE_KEYWORD.test(text)) return;
    const line = firstLine + index;
    const match = ACKNOWLEDGEMENT.exec(text);
    if (!match) throw new ChangesetError(`${file}:${line}: malformed acknowledgement, expected "${ACKNOWLEDGEMENT_SYNTAX}" with a non-empty reason`);
    found.push({ rule: match[1]!, location: match[2]!, reason: match[3]!, file, line, packages });
  });
  return found;
}

/** One pending changeset: its file, the packages and bumps of its frontmatter, its text and its acknowledgements. */
export interface ChangesetFile {
  file: string;
  /** The file name without `.md`: what changesets calls the changeset's id. */
  id: string;
  bumps: [pkg: string, bump: string][];
  /** The Markdown text after the frontmatter, as changesets puts it in the CHANGELOG. */
  body: string;
  acknowledgements: Acknowledgement[];
}

/**
 * The pending changesets of a `.changeset` folder, sorted by file name: each `*.md` file with a YAML frontmatter
 * (`"@paykit/payments": minor`). README.md and files without frontmatter are not changesets. A missing folder
 * means none.
 */
export async function readChangesetFiles(dir: string): Promise<ChangesetFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const changesets: ChangesetFile[] = [];
  for (const name of names.filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md').sort()) {
    const file = join(dir, name);
    const text = await readFile(file, 'utf8');
    const match = /^---\r?\n([\s\S]*?)\r?\n---[^\S\r\n]*(\r?\n|$)/.exec(text);
    if (!match) continue;
    let frontmatter: unknown;
    try {
      frontmatter = parse(match[1]!);
    } catch (error) {
      throw new ChangesetError(`invalid frontmatter in ${file}: ${(error as Error).message}`);
    }
    if (frontmatter !== null && frontmatter !== undefined && (typeof frontmatter !== 'object' || Array.isArray(frontmatter))) {
      throw new ChangesetError(`frontmatter of ${file} is not a map of package names to bumps`);
    }
    const bumps = Object.entries(frontmatter ?? {}).map(([pkg, bump]): [string, string] => [pkg, String(bump)]);
    const bodyStart = match[0].split(/\n/).length - (match[0].endsWith('\n') ? 0 : 1);
    const body = text.slice(match[0].length);
    const packages = bumps.map(([pkg]) => pkg);
    changesets.push({ file, id: name.slice(0, -3), bumps, body, acknowledgements: acknowledgementsIn(body, file, bodyStart, packages) });
  }
  return changesets;
}

/** Everything the gate needs from the pending changesets: the bump asked for each package, and the acknowledgements. */
export async function readChangesets(dir: string): Promise<PendingChangesets> {
  const files = await readChangesetFiles(dir);
  // Like `changeset version`, the highest bump asked for a package wins.
  const rank = (bump: string | undefined): number => ['none', 'patch', 'minor', 'major'].indexOf(bump ?? 'none');
  const bumps = new Map<string, string>();
  for (const [pkg, bump] of files.flatMap((f) => f.bumps)) if (rank(bump) >= rank(bumps.get(pkg))) bumps.set(pkg, bump);
  return {
    bumps,
    acknowledgements: files.flatMap((f) => f.acknowledgements),
  };
}

/** Packages named by the pending changesets, with the bump each asks for. */
export async function pendingChangesets(dir: string): Promise<Map<string, string>> {
  return (await readChangesets(dir)).bumps;
}
