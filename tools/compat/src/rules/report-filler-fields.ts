import { isResponse, type Rule } from './rule.js';

/** Reference, Versioning: "new or repurposed filler fields in transaction reports". */
export const reportFillerFields: Rule = {
  name: 'report-filler-fields',
  verdict: 'allowed',
  meaning:
    'In a report (a text/csv response): a new column, or any change inside a filler column (a column named filler*, or marked x-paykit-filler: true).',
  matches: (d) =>
    isResponse(d) && d.report === true && (d.kind === 'property-added' || (d.filler === true && d.kind !== 'property-removed')),
};
