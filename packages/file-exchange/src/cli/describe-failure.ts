import { dirname } from 'node:path';

const actions: Record<string, (path: string) => string> = {
  // The path of mkdtemp is the folder name's prefix: what matters is the folder it was to be made in.
  mkdtemp: (path) => `cannot make a temporary folder in ${dirname(path)}: set TMPDIR (or, for download, --out) to a folder that exists and can be written`,
  mkdir: (path) => `cannot create the folder ${path}`,
  open: (path) => `cannot open ${path}`,
  rename: (path) => `cannot move ${path} into place`,
  link: (path) => `cannot link ${path}`,
  copyfile: (path) => `cannot copy ${path}`,
};

/**
 * A failure that is not one of the client's typed errors, said with what was being done: a system call's failure
 * names the action and the path ("cannot make a temporary folder in /x …") before the system's words, and anything
 * else names its kind (a RangeError is not a message an operator can act on alone).
 */
export function describeLocalFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { syscall, path, code } = error as NodeJS.ErrnoException;
  if (syscall !== undefined && path !== undefined) {
    const action = actions[syscall]?.(path) ?? `${syscall} ${path} failed`;
    // Node's message is "CODE: description, syscall 'path'": the description is the part worth keeping.
    const reason = error.message.split(', ')[0] ?? code ?? 'error';
    return `${action} (${reason}).`;
  }
  return `unexpected ${error.name}: ${error.message}`;
}
