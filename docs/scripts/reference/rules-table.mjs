// The reference's rules that OpenAPI has no keyword for (the root `x-paykit-rules` of a contract: retries, limits,
// lifetimes), as a Markdown table for the introduction of the contract's reference page.
import { durationMs, rulesExtension } from '@paykit/contracts';

const units = /** @type {const} */ ([
  [86_400_000, 'day', 'days'],
  [3_600_000, 'hour', 'hours'],
  [60_000, 'minute', 'minutes'],
  [1_000, 'second', 'seconds'],
]);

/** @param {number} ms a whole number of seconds at least */
export function humanDuration(ms) {
  const [size, one, many] = units.find(([size]) => ms % size === 0) ?? [1, 'millisecond', 'milliseconds'];
  const count = ms / size;
  return `${count} ${count === 1 ? one : many}`;
}

/** @param {string} name camelCase */
const words = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** @param {unknown} value @returns {string} */
function showValue(value) {
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') {
    const ms = durationMs(value);
    return ms === undefined ? `\`${value}\`` : `${humanDuration(ms)} (\`${value}\`)`;
  }
  return String(value);
}

/** @param {string} text */
const cell = (text) => text.trim().replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/**
 * The Markdown section, or '' when the contract has no rules.
 * @param {Record<string, unknown>} doc a bundled OpenAPI document
 */
export function rulesSection(doc) {
  const rules = /** @type {Record<string, Record<string, unknown>> | undefined} */ (doc[rulesExtension]);
  if (!rules || Object.keys(rules).length === 0) return '';
  const rows = Object.entries(rules).map(([name, { description, ...fields }]) => {
    const values = Object.entries(fields).map(([field, value]) => `${words(field)}: ${showValue(value)}`);
    return `| \`${name}\` | ${cell(values.join('<br>'))} | ${cell(String(description ?? ''))} |`;
  });
  return [
    '',
    '## Rules of the reference',
    '',
    `Retries, limits and lifetimes that OpenAPI has no keyword for, from the contract's \`${rulesExtension}\`. The client`,
    'packages follow them; they are generated into their code from the same place.',
    '',
    "| rule | values | the rule (quoted where the words are the reference's; the rest is our reading) |",
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
