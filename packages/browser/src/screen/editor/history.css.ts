// The style of the history panel (history-panel.tsx) and the side-by-side diff (diff-view.tsx),
// for the screen's one style sheet: the CSP allows no inline style. It uses the sheet's colour
// variables (--ink, --muted, --line, --bad, --ok, --ground) and its `.sr-only` and `table.stack`.
export const historyCss = `
.history-panel { display: grid; gap: .6rem; }
.history-panel caption { font-weight: 600; }
table.history td { vertical-align: middle; }
table.history tr.history-current { background: #e6eefb; }
.history-badge { display: inline-block; margin-left: .4rem; border-radius: 999px; padding: 0 .5rem;
  font-size: .8rem; font-weight: 600; border: 1px solid var(--accent); color: var(--accent); }
.history-kind { display: block; font-size: .82rem; color: var(--muted); }
.history-pick { display: inline-flex; align-items: center; min-width: 1.75rem; min-height: 1.75rem;
  margin: 0; cursor: pointer; }
.history-pick input { width: 1.1rem; height: 1.1rem; margin: 0; }
.history-compare { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
.history-choice { margin: 0; color: var(--muted); }

.diff-view { display: grid; gap: .5rem; }
.diff-summary { margin: 0; }
table.diff { table-layout: fixed; font-size: .85rem; }
table.diff th.diff-number { width: 3.5rem; }
table.diff td { padding: .1rem .4rem; border-bottom: 0; }
table.diff .diff-number { text-align: right; color: var(--muted); user-select: none;
  font-variant-numeric: tabular-nums; border-right: 1px solid var(--line); }
table.diff .diff-line { white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff .diff-text { font-size: 1em; }
table.diff .diff-sign { display: inline-block; width: 1.1em; font-weight: 700; user-select: none; }
table.diff .diff-removed { background: #fdecec; }
table.diff .diff-removed .diff-sign { color: var(--bad); }
table.diff .diff-added { background: #e3f5e8; }
table.diff .diff-added .diff-sign { color: var(--ok); }
table.diff .diff-empty { background: repeating-linear-gradient(-45deg, transparent 0 4px,
  var(--ground) 4px 8px); }
table.diff tr.diff-fold td { text-align: center; background: var(--ground); padding: .25rem; }
table.diff tr.diff-changed .diff-number { color: var(--ink); font-weight: 600; }
table.diff tr.diff-row:focus-visible { outline-offset: -3px; }
@media (forced-colors: active) {
  table.diff .diff-removed, table.diff .diff-added { border-left: 3px solid CanvasText; }
}
`;
