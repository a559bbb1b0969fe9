import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { parse } from './syntax.js';

/**
 * The value of a timeout as written in a file: a number, arithmetic on numbers, or a `const` that is one, of the same
 * file or imported by name from a relative module of the package (`import { slowStart } from './support.js'`).
 * Anything else (a function call, a property, a package's export) is `undefined`: the check cannot read it.
 */
export class FileConstants {
  private readonly declared = new Map<string, ts.Expression>();
  /** Names imported from a relative module: where from, and under which name it is exported there. */
  private readonly imported = new Map<string, { path: string; name: string }>();

  /** `path`: the file's path on disk, to follow its relative imports (none are followed without it). */
  constructor(source: ts.SourceFile, private readonly path?: string) {
    for (const statement of source.statements) {
      if (!path || !ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const from = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (!from.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        this.imported.set(element.name.text, { path: join(dirname(path), from), name: (element.propertyName ?? element.name).text });
      }
    }
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isVariableDeclarationList(node.parent) &&
        node.parent.flags & ts.NodeFlags.Const &&
        !this.declared.has(node.name.text)
      ) {
        this.declared.set(node.name.text, node.initializer);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  valueOf(expression: ts.Expression, seen: Set<string> = new Set()): number | undefined {
    if (ts.isNumericLiteral(expression)) return Number(expression.text.replaceAll('_', ''));
    if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) {
      return this.valueOf(expression.expression, seen);
    }
    if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken) {
      const value = this.valueOf(expression.operand, seen);
      return value === undefined ? undefined : -value;
    }
    if (ts.isBinaryExpression(expression)) {
      const left = this.valueOf(expression.left, seen);
      const right = this.valueOf(expression.right, seen);
      if (left === undefined || right === undefined) return undefined;
      switch (expression.operatorToken.kind) {
        case ts.SyntaxKind.PlusToken:
          return left + right;
        case ts.SyntaxKind.MinusToken:
          return left - right;
        case ts.SyntaxKind.AsteriskToken:
          return left * right;
        case ts.SyntaxKind.SlashToken:
          return left / right;
        default:
          return undefined;
      }
    }
    if (ts.isIdentifier(expression)) {
      if (expression.text === 'Infinity') return Infinity;
      if (seen.has(expression.text)) return undefined;
      const initializer = this.declared.get(expression.text);
      if (initializer) return this.valueOf(initializer, new Set([...seen, expression.text]));
      const origin = this.imported.get(expression.text);
      return origin ? importedValue(origin.path, origin.name) : undefined;
    }
    return undefined;
  }
}

/** A const exported by a relative module (`./support.js` is read as support.ts, .mts, .js or .mjs, whichever exists). */
function importedValue(specifier: string, name: string): number | undefined {
  const stem = specifier.replace(/\.[cm]?[jt]s$/, '');
  const file = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].map((extension) => stem + extension).find((candidate) => existsSync(candidate));
  if (!file) return undefined;
  const source = parse(file, readFileSync(file, 'utf8'));
  const exported = source.statements.some(
    (statement) =>
      ts.isVariableStatement(statement) &&
      statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword) &&
      statement.declarationList.declarations.some((declaration) => ts.isIdentifier(declaration.name) && declaration.name.text === name),
  );
  if (!exported) return undefined;
  // Its own imports are not followed: one step keeps the timeout within sight of the test that uses it.
  const constants = new FileConstants(source);
  return constants.valueOf(ts.factory.createIdentifier(name));
}
