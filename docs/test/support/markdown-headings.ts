// The headings of a Markdown source as plain text (inline code marks and links removed), ignoring fenced code.
export interface MarkdownHeading {
  depth: number;
  text: string;
}

export function markdownHeadings(markdown: string): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^(#{1,6}) +(.+?) *#*$/.exec(line);
    if (!match) continue;
    const text = (match[2] ?? '').replace(/`([^`]*)`/g, '$1').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*?([^*]+)\*\*?/g, '$1');
    headings.push({ depth: match[1]?.length ?? 0, text });
  }
  return headings;
}
