// Pulls the TypeScript samples out of the guides so the tests can type-check them against the real packages and run
// the ones marked runnable. A sample is a fenced block whose info string starts with `ts` (or `typescript`); extra
// words are flags, e.g. ```ts runnable.

/**
 * @typedef {{ guide: string, index: number, line: number, flags: string[], code: string }} CodeSample
 */

/**
 * @param {{ source: string, markdown: string }[]} guides
 * @returns {CodeSample[]}
 */
export function extractCodeSamples(guides) {
  /** @type {CodeSample[]} */
  const samples = [];
  for (const guide of guides) {
    const lines = guide.markdown.split('\n');
    let index = 0;
    for (let i = 0; i < lines.length; i++) {
      const open = /^(```+|~~~+)\s*(ts|typescript)(?:\s+(.*))?$/.exec(lines[i] ?? '');
      if (!open) continue;
      const fence = open[1] ?? '```';
      const body = [];
      let j = i + 1;
      while (j < lines.length && !(lines[j] ?? '').startsWith(fence)) body.push(lines[j++]);
      if (j >= lines.length) throw new Error(`${guide.source}:${i + 1}: code block is never closed`);
      samples.push({
        guide: guide.source,
        index: index++,
        line: i + 2, // first line of code, 1-based
        flags: (open[3] ?? '').split(/\s+/).filter(Boolean),
        code: body.join('\n'),
      });
      i = j;
    }
  }
  return samples;
}

/**
 * File name of an extracted sample: the guide's name and the sample's position in it.
 * @param {CodeSample} sample
 */
export const sampleFileName = (sample) => `${sample.guide.replace(/\.md$/, '')}.sample-${sample.index + 1}.ts`;
