// The screen's one style sheet, served as /assets/screen.css (the CSP allows no inline style).
export const screenCss = `
:root { --ink: #1d1d1f; --muted: #555; --line: #c9c9d1; --accent: #1a56b8; --bad: #a4161a;
  --ok: #1b6e3a; --warn: #8a5a00; --paper: #fff; --ground: #f3f4f7;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); }
* { box-sizing: border-box; }
body { margin: 0; background: var(--ground); line-height: 1.45; }
main { max-width: 78rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 .6rem; }
a { color: var(--accent); }
/* Titles, labels and names come from people and pages: a long one without spaces wraps instead of
   widening the page. */
h1, h2, h3, h4, td, th, dd, li, .lock, #edit-result { overflow-wrap: anywhere; }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; border-radius: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem; }
.skip:focus { left: .5rem; z-index: 10; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.top { display: flex; gap: 1.5rem; align-items: center; background: #20232a; color: #fff;
  padding: .6rem 1.25rem; flex-wrap: wrap; }
.top a { color: #fff; }
.top nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.brand { font-weight: 700; text-decoration: none; }
.logout { margin-left: auto; display: flex; gap: .75rem; align-items: center; }
.who { color: #ddd; font-size: .9rem; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 6px;
  padding: 1rem 1.1rem; margin: 0 0 1rem; }
.narrow { max-width: 26rem; }
.danger { border-color: var(--bad); }
label { display: block; font-weight: 600; margin-bottom: .2rem; }
input[type=checkbox] + label { display: inline; }
input, select, textarea, button { font: inherit; }
input[type=text], input[type=email], input[type=password], input[type=number], select, textarea {
  border: 1px solid #8a8a96; border-radius: 4px; padding: .35rem .5rem; max-width: 100%; }
textarea { width: 100%; }
button { border: 1px solid #5a5a66; background: #fafafa; border-radius: 4px;
  padding: .35rem .8rem; cursor: pointer; }
button.primary, button[type=submit] { background: var(--accent); border-color: var(--accent);
  color: #fff; }
button:disabled, fieldset:disabled button { opacity: .5; cursor: not-allowed; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0 0 .75rem; }
fieldset.plain { border: 0; padding: 0; margin: 0; min-width: 0; }
.toolbar { display: flex; gap: .5rem; flex-wrap: wrap; }
.mono, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  font-size: .92em; }
.hint { color: var(--muted); font-size: .92rem; }
.error { color: var(--bad); font-weight: 600; }
.ok { color: var(--ok); }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { text-align: left; border-bottom: 1px solid var(--line); padding: .35rem .5rem;
  vertical-align: top; }
.badge { display: inline-block; border-radius: 999px; padding: .1rem .6rem; font-size: .85rem;
  font-weight: 600; background: #fff3cd; color: var(--warn); border: 1px solid #e0c36c; }
.badge.ok { background: #e3f5e8; color: var(--ok); border-color: #9fd2ae; }
.summary { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
.summary dt { font-weight: 600; }
.summary dd { margin: 0; }
.issued { border: 2px solid var(--accent); border-radius: 6px; padding: .5rem .8rem; }
.issued input { width: 32rem; }
.lock { padding: .5rem .8rem; border-radius: 6px; margin-bottom: 1rem; border: 1px solid var(--line);
  background: var(--paper); }
.lock.held { border-color: var(--ok); }
.lock.other { border-color: var(--bad); background: #fdecec; }
.report ul { margin: .2rem 0 .6rem; }
.sha { word-break: break-all; }

/* ---- Login, projects, project and tokens screens (issue 18): dialogs, roles, narrow screens. */
/* A table cell breaks a long word only where it does not fit: "anywhere" (above) also lets an
   automatic table squeeze its columns to one letter each. */
td, th, dd, li { overflow-wrap: break-word; }
/* Names people give (titles, summaries) may be one long word: those cells may break it anywhere,
   and only those, so the other columns keep their words whole. */
td:first-child a, td[data-label=Title], td[data-label=Summary], td[data-label=Change],
td[data-label=Name], td[data-label=File], td[data-label=Note] { overflow-wrap: anywhere; }
.summary { grid-template-columns: max-content minmax(0, 1fr); }
.role-control { display: inline-flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
button.act { background: var(--bad); border-color: var(--bad); color: #fff; }
dialog.ask { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem;
  width: min(34rem, calc(100vw - 2rem)); color: var(--ink); background: var(--paper); }
dialog.ask::backdrop { background: rgb(0 0 0 / .45); }
dialog.ask h2 { overflow-wrap: anywhere; }
dialog.ask .toolbar { justify-content: flex-end; margin-bottom: 0; }
dialog.ask .entry { border-left: 3px solid var(--line); padding-left: .6rem; }
.issued input { max-width: 100%; }
time { white-space: nowrap; }
.editing { margin: 0 0 1rem; padding: .5rem .8rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--paper); }
.editing:empty { display: none; }
.editing.held { border-color: #e0c36c; background: #fff8e1; }
.badge.unsaved { border-radius: 6px; }
#rename-title { width: 32rem; }
@media (max-width: 40rem) {
  main { padding: .75rem .75rem 2rem; }
  h1 { font-size: 1.35rem; }
  .top { gap: .4rem 1rem; padding: .5rem .75rem; }
  .logout { margin-left: 0; flex-wrap: wrap; }
  .who { overflow-wrap: anywhere; }
  .card { padding: .75rem; }
  .summary { grid-template-columns: minmax(0, 1fr); }
  .summary dd { margin-bottom: .35rem; }
  /* Each row of a table stacks into labelled lines (the cells' data-label). */
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); }
  table.stack caption { display: block; }
  table.stack tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
  table.stack td { border: 0; padding: .15rem 0; }
  table.stack td[data-label] { position: relative; padding-left: 7.5rem; min-height: 1.6rem; }
  table.stack td[data-label]::before { content: attr(data-label); position: absolute; left: 0;
    width: 7rem; font-weight: 600; color: var(--muted); }
}
`;
