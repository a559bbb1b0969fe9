import type { ProxyReport, ViolationGroup } from './report.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Cell = string | number | { html: string };
const cell = (value: Cell) => (typeof value === 'object' ? value.html : escapeHtml(String(value)));
const row = (cells: Cell[]) => `<tr>${cells.map((c) => `<td>${cell(c)}</td>`).join('')}</tr>`;
const table = (head: string[], rows: string[], empty: string) =>
  rows.length === 0
    ? `<p class="empty">${escapeHtml(empty)}</p>`
    : `<table><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;

const exchangeLinks = (group: ViolationGroup) =>
  group.exchanges.map((number) => `<a href="#exchange-${number}">#${number}</a>`).join(' ') +
  (group.count > group.exchanges.length ? ` <span class="more">and ${group.count - group.exchanges.length} more</span>` : '');

/** The report as one static HTML page: no script, no outside resource, every value escaped. */
export function renderHtml(report: ProxyReport): string {
  const verdict = report.verdict.passed ? 'PASS' : 'FAIL';
  const context = [
    ['Service (upstream)', report.upstream],
    ['Contract', `${report.contract.title} (${report.contract.name}) ${report.contract.version}`],
    ['Proxy', `${report.proxy.name} ${report.proxy.version}`],
    ['Mode', report.mode === 'strict' ? 'strict: requests that broke a rule were refused' : 'observe: every request was passed on'],
    ['Run', `${report.startedAt} to ${report.endedAt}`],
    ['Exchanges', `${report.exchanges} (${report.refused} refused, ${report.unreachable} never reached the service)`],
  ].map(([name, value]) => `<tr><th scope="row">${escapeHtml(name!)}</th><td>${escapeHtml(value!)}</td></tr>`);
  const groups = report.groups.map((group) =>
    row([group.side, { html: `<code>${escapeHtml(group.rule)}</code>` }, group.operation, group.location, group.message, { html: `<code>${escapeHtml(group.source)}</code>` }, group.count, { html: exchangeLinks(group) }]),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contract proxy report: ${verdict}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;max-width:80rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}
thead th{background:#f3f3f3}th[scope=row]{background:#fafafa;font-weight:600}code{font-size:13px}
.verdict{display:inline-block;padding:.4rem 1rem;border-radius:.3rem;font-weight:700;font-size:1.2rem;color:#fff}
.pass{background:#1f7a36}.fail{background:#b42318}.empty,.more{color:#666}ul{margin-top:.3rem}
</style>
</head><body>
<h1>Contract proxy report</h1>
<p><span class="verdict ${verdict.toLowerCase()}">${verdict}</span></p>
${report.verdict.reasons.length ? `<ul>${report.verdict.reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join('')}</ul>` : '<p>No request or answer broke the contract.</p>'}
${report.verdict.notes.length ? `<h2>To look at</h2><ul>${report.verdict.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>` : ''}
<h2>Context</h2>
<table><tbody>${context.join('')}</tbody></table>
<h2>Answers by status</h2>
${table(['status', 'answers'], Object.entries(report.statuses).map(([status, count]) => row([status, count])), 'The service answered nothing.')}
<h2>Violations</h2>
${table(['side', 'rule', 'operation', 'location', 'message', 'source of the rule', 'count', 'exchanges'], groups, 'None.')}
<h2>Coverage: ${report.coverage.exercised} of ${report.coverage.operations} operations exercised</h2>
${table(['operation', 'exchanges'], Object.entries(report.operations).map(([operation, count]) => row([operation, count])), 'No operation was called.')}
<h3>Not exercised</h3>
${table(['operation', 'method', 'path'], report.coverage.notExercised.map((operation) => row([operation.id, operation.method, operation.path])), 'Every operation of the contract was called.')}
<h2>Exchanges cited</h2>
${table(
  ['exchange', 'started', 'operation', 'method', 'outcome'],
  report.exchangesCited.map((exchange) =>
    `<tr id="exchange-${exchange.number}">${[`#${exchange.number}`, exchange.startedAt, exchange.operation, exchange.method, String(exchange.outcome)].map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`,
  ),
  'No exchange is cited.',
)}
<p class="more">An exchange's number is its HAR entry's <code>_paykitExchange</code> in the recording (<code>--record</code>).</p>
</body></html>
`;
}
