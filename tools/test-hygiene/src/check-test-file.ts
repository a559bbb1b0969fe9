import ts from 'typescript';
import { FileConstants } from './constants.js';
import {
  endToEndLimitMs,
  endToEndMarker,
  markerLines,
  markerReason,
  pollHelperName,
  realTimeMarker,
  releaseHookLimitMs,
  releaseReason,
  unitFileLimitMs,
  type Problem,
} from './rules.js';
import { enclosingFunction, insideLoop, lineOf, parse, propertyName } from './syntax.js';

const registrars = new Set(['it', 'test', 'describe', 'suite']);
const hooks = new Set(['beforeAll', 'afterAll', 'beforeEach', 'afterEach']);
/** `it.each(rows)`, `test.for(rows)`, `it.skipIf(x)`: calls that make a registrar; the next call registers. */
const factories = new Set(['each', 'for', 'skipIf', 'runIf', 'extend']);
const modifiers = new Set(['skip', 'only', 'concurrent', 'sequential', 'todo', 'fails', 'shuffle']);
const timerModules = new Set(['node:timers/promises', 'timers/promises', 'node:timers', 'timers']);
const sleepNames = new Set(['setTimeout', 'sleep', 'delay']);

interface TimeoutSetting {
  node: ts.Node;
  what: string;
  value: number | undefined;
  /** Whether it bounds a hook (beforeAll…, vi.setConfig's hookTimeout) or tests (it, describe, testTimeout). */
  bounds: 'hook' | 'test';
}

/** The registrar (`it`, `describe`, a hook) a call's callee comes down to, through modifiers and factory calls. */
function registrarOf(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee) && modifiers.has(callee.name.text)) return registrarOf(callee.expression);
  if (ts.isCallExpression(callee) && ts.isPropertyAccessExpression(callee.expression) && factories.has(callee.expression.name.text)) {
    return registrarOf(callee.expression.expression);
  }
  return undefined;
}

function timeoutProperty(
  options: ts.ObjectLiteralExpression,
  names: readonly string[],
  what: string,
  constants: FileConstants,
  bounds: TimeoutSetting['bounds'],
): TimeoutSetting[] {
  return options.properties
    .filter((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && names.includes(propertyName(property.name) ?? ''))
    .map((property) => ({
      node: property,
      what: `the ${propertyName(property.name)} option of ${what}`,
      value: constants.valueOf(property.initializer),
      bounds: propertyName(property.name) === 'hookTimeout' ? 'hook' : bounds,
    }));
}

/** Every timeout the file sets: per test or describe (argument or `{ timeout }`), per hook, and by vi.setConfig. */
function timeoutsSet(source: ts.SourceFile, constants: FileConstants): TimeoutSetting[] {
  const found: TimeoutSetting[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const args = node.arguments;
      const factoryCall = ts.isPropertyAccessExpression(callee) && factories.has(callee.name.text);
      const registrar = factoryCall ? undefined : registrarOf(callee);
      if (registrar && registrars.has(registrar) && args.length >= 2) {
        // (name, options, fn) or (name, fn, timeout | options).
        const [, second, third] = args;
        if (second && ts.isObjectLiteralExpression(second)) found.push(...timeoutProperty(second, ['timeout'], `${registrar}()`, constants, 'test'));
        else if (third && ts.isObjectLiteralExpression(third)) found.push(...timeoutProperty(third, ['timeout'], `${registrar}()`, constants, 'test'));
        else if (third) found.push({ node: third, what: `the timeout argument of ${registrar}()`, value: constants.valueOf(third), bounds: 'test' });
      } else if (registrar && hooks.has(registrar) && args[1]) {
        const timeout = args[1];
        if (ts.isObjectLiteralExpression(timeout)) found.push(...timeoutProperty(timeout, ['timeout'], `${registrar}()`, constants, 'hook'));
        else found.push({ node: timeout, what: `the timeout argument of ${registrar}()`, value: constants.valueOf(timeout), bounds: 'hook' });
      } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'setConfig' && ts.isIdentifier(callee.expression) && callee.expression.text === 'vi') {
        const config = args[0];
        if (config && ts.isObjectLiteralExpression(config)) found.push(...timeoutProperty(config, ['testTimeout', 'hookTimeout'], 'vi.setConfig()', constants, 'test'));
        else found.push({ node, what: 'vi.setConfig()', value: undefined, bounds: 'test' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `setTimeout` from node:timers(/promises) under another name (`import { setTimeout as wait }`). */
function timerAliases(source: ts.SourceFile): Set<string> {
  const aliases = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !timerModules.has(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) if ((element.propertyName ?? element.name).text === 'setTimeout') aliases.add(element.name.text);
  }
  return aliases;
}

/** The name a sleep call is made by (`setTimeout`, `globalThis.setTimeout`, `sleep`, an alias), else undefined. */
function sleepCallName(call: ts.CallExpression, aliases: Set<string>): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee) && (sleepNames.has(callee.text) || aliases.has(callee.text))) return callee.text;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'setTimeout') return callee.getText();
  return undefined;
}

/** Whether the call is a poll: inside a loop of a function named waitFor…/waitUntil…. */
function inPollHelper(call: ts.Node): boolean {
  for (let scope = enclosingFunction(call); scope; scope = enclosingFunction(scope.node)) {
    if (scope.name && pollHelperName.test(scope.name) && insideLoop(call, scope.node)) return true;
  }
  return false;
}

/** A sleep helper's own body (`const sleep = (ms) => new Promise((r) => setTimeout(r, ms))`): its callers are checked. */
function insideSleepHelper(call: ts.Node, aliases: Set<string>): boolean {
  for (let scope = enclosingFunction(call); scope; scope = enclosingFunction(scope.node)) {
    if (scope.name && (sleepNames.has(scope.name) || aliases.has(scope.name))) return true;
  }
  return false;
}

/** Rules 2 and 3 for one test file (test/**, support files included). */
export function checkTestFile(file: string, text: string, path?: string): Problem[] {
  const source = parse(file, text);
  const lines = text.split('\n');
  const constants = new FileConstants(source, path);
  const problems: Problem[] = [];

  // Rule 2: timeouts, and the end-to-end marker that allows longer ones.
  let endToEnd = false;
  let release = false;
  for (const [index, line] of lines.slice(0, markerLines).entries()) {
    const marker = endToEndMarker.exec(line);
    if (!marker) continue;
    const reason = markerReason(marker[1]);
    if (reason) {
      endToEnd = true;
      // The reason may go on over the comment lines that follow the marker.
      const rest = lines.slice(index + 1, markerLines).findIndex((next) => !/^\s*\/\//.test(next));
      const whole = [reason, ...lines.slice(index + 1, rest < 0 ? markerLines : index + 1 + rest)].join(' ');
      release = releaseReason.test(whole);
    } else problems.push({ file, line: index + 1, rule: 'end-to-end-marker', message: 'the end-to-end marker names no reason: `// end-to-end: <what makes this file slow>`' });
    break;
  }
  for (const { node, what, value, bounds } of timeoutsSet(source, constants)) {
    const limit = !endToEnd ? unitFileLimitMs : release && bounds === 'hook' ? releaseHookLimitMs : endToEndLimitMs;
    let message: string | undefined;
    if (value === undefined) {
      message = `${what}: a timeout this check cannot read; write it as a number or as a const of this file`;
    } else if (!(value > 0 && value <= limit)) {
      message = endToEnd
        ? `${what} is ${value} ms: an end-to-end file sets at most ${limit} ms ${bounds === 'hook' ? 'a hook' : 'a test'}` +
          (release ? ` (a release: ${releaseHookLimitMs} ms a hook, ${endToEndLimitMs} ms a test)` : '; split the work into tests')
        : `${what} is ${value} ms, in a file without \`// end-to-end: <reason>\` in its first ${markerLines} lines: ` +
          `a unit test file sets at most ${unitFileLimitMs} ms` +
          (value > 0 && value <= endToEndLimitMs ? `; an end-to-end file says why and may set up to ${endToEndLimitMs} ms` : '');
    }
    if (message) problems.push({ file, line: lineOf(source, node), rule: 'file-timeout', message });
  }

  // Rule 3: no sleep synchronises a test.
  const fakeTimers = /\bvi\s*\.\s*useFakeTimers\s*\(/.test(text);
  const aliases = timerAliases(source);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = sleepCallName(node, aliases);
      if (name && !fakeTimers && !insideSleepHelper(node, aliases) && !inPollHelper(node)) {
        const line = lineOf(source, node);
        const marker = realTimeMarker.exec(lines[line - 1]!) ?? (line >= 2 ? realTimeMarker.exec(lines[line - 2]!) : null);
        if (!marker) {
          problems.push({
            file,
            line,
            rule: 'sleep',
            message:
              `${name}() waits on the wall clock: put the file under fake timers (vi.useFakeTimers), wait for the event ` +
              '(vi.waitFor, vi.waitUntil, expect.poll, or a loop in a waitFor…/waitUntil… helper), or mark a wait meant to be real ' +
              '`// real-time: <reason>` on its line or the line above',
          });
        } else if (!markerReason(marker[1])) {
          problems.push({ file, line, rule: 'sleep', message: `${name}(): the real-time marker names no reason: \`// real-time: <why this waits on the clock>\`` });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems.sort((a, b) => a.line - b.line);
}
