// Pulls the TypeScript samples out of the guides so the tests can type-check them against the real packages and run
// the ones marked runnable. A sample is a fenced block whose info string starts with `ts` (or `typescript`); extra
// words are flags, e.g. ```ts runnable. The blocks are found by markdown-it, the parser that renders the guides.
import MarkdownIt from 'markdown-it';

/**
 * @typedef {{ guide: string, index: number, line: number, flags: string[], code: string }} CodeSample
 */

const parser = new MarkdownIt();

/**
 * @param {{ source: string, markdown: string }[]} guides
 * @returns {CodeSample[]}
 */
export function extractCodeSamples(guides) {
  /** @type {CodeSample[]} */
  const samples = [];
  for (const guide of guides) {
    const lines = guide.markdown.split('\n');
    const fences = parser.parse(guide.markdown, {}).filter((token) => token.type === 'fence' && token.map);
    let index = 0;
    for (const fence of fences) {
      const [language = '', ...flags] = fence.info.trim().split(/\s+/);
      if (language !== 'ts' && language !== 'typescript') continue;
      const [start, end] = /** @type {[number, number]} */ (fence.map);
      // markdown-it runs an unclosed fence to the end of the document: its last line is then not a closing fence.
      const last = (lines[end - 1] ?? '').trim();
      if (end - start < 2 || !last.startsWith(fence.markup) || last.replace(/^[`~]+/, '') !== '') {
        throw new Error(`${guide.source}:${start + 1}: code block is never closed`);
      }
      samples.push({ guide: guide.source, index: index++, line: start + 2, flags, code: fence.content.replace(/\n$/, '') });
    }
  }
  return samples;
}

/**
 * File name of an extracted sample: the guide's name and the sample's position in it.
 * @param {CodeSample} sample
 */
export const sampleFileName = (sample) => `${sample.guide.replace(/\.md$/, '')}.sample-${sample.index + 1}.ts`;
