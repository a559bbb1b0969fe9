/** Small helpers to print TypeScript source text deterministically. */

export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A JSDoc block, or nothing; `*\/` inside the text is broken up so that it cannot close the comment. */
export function jsDoc(lines: Array<string | undefined>, indent = ''): string {
  const text = lines.filter((l): l is string => l !== undefined && l !== '').map((l) => l.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return '';
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : quote(name);
}
