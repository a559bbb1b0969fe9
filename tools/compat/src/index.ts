// The package's programmatic entry (built to dist/ for the docs build); the command line runs src/cli.ts through tsx.
export { check, judgeVersions, formatJudgement, type CheckOptions, type CheckResult, type ContractReport } from './gate.js';
export { readChangesetFiles, readChangesets, withoutAcknowledgements, ChangesetError, ACKNOWLEDGEMENT_SYNTAX, type Acknowledgement, type ChangesetFile, type PendingChangesets } from './changesets.js';
export {
  applyUndo,
  formatHistoryTable,
  judgeStep,
  referenceChangeLog,
  referenceHistory,
  type HistoryEntry,
  type HistoryStep,
  type StepVerdict,
  type UndoEdit,
} from './history.js';
export { rules, type Rule, type Verdict } from './rules/index.js';
