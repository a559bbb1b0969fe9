import ts from 'typescript';

/** Parses a test or config file of any of the script kinds the repository uses (TS, JS, ESM, CommonJS). */
export function parse(file: string, text: string): ts.SourceFile {
  const kind = /\.[cm]?tsx?$/.test(file) ? (file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS) : ts.ScriptKind.JS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The 1-based line where a node starts (its own text, not the comments before it). */
export function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

export function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
}

/** The innermost function around a node, with the name it is known by (declaration, `const x = () => …`, method). */
export function enclosingFunction(node: ts.Node): { node: ts.FunctionLikeDeclaration; name: string | undefined } | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isFunctionDeclaration(current) || ts.isMethodDeclaration(current)) {
      return { node: current, name: current.name && ts.isIdentifier(current.name) ? current.name.text : undefined };
    }
    if (ts.isFunctionExpression(current) || ts.isArrowFunction(current)) {
      const holder = current.parent;
      const name =
        current.name?.text ??
        (holder && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)
          ? holder.name.text
          : holder && ts.isPropertyAssignment(holder)
            ? propertyName(holder.name)
            : undefined);
      return { node: current, name };
    }
  }
  return undefined;
}

/** Whether a loop statement lies between the node and the function `within`. */
export function insideLoop(node: ts.Node, within: ts.Node): boolean {
  for (let current = node.parent; current && current !== within; current = current.parent) {
    if (ts.isWhileStatement(current) || ts.isDoStatement(current) || ts.isForStatement(current) || ts.isForOfStatement(current) || ts.isForInStatement(current)) {
      return true;
    }
  }
  return false;
}
