// The page editor's style sheet: outline tree, canvas with its overlay, panels (served with the
// history's as /assets/galley-screen.css, which the build writes beside the scripts).
export const editorCss = `
body[data-screen=editor] main { max-width: none; }
.editor-head { display: flex; gap: 1rem; align-items: flex-end; flex-wrap: wrap; }
.editor-head .lock { flex: 1 1 24rem; margin: 0 0 .6rem; }
.page-picker { margin: 0 0 .6rem; min-width: 0; max-width: 100%; }
.page-picker select { max-width: min(28rem, 100%); }
.editor-toolbar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center;
  background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem;
  margin-bottom: .75rem; position: sticky; top: 0; z-index: 5; }
.tool-group { display: flex; gap: .35rem; align-items: center; flex-wrap: wrap; }
.tool-group + .tool-group { border-left: 1px solid var(--line); padding-left: 1rem; }
.devices button[aria-pressed=true] { background: #20232a; color: #fff; border-color: #20232a; }
.danger-button { color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .55; cursor: not-allowed; }
.notice { margin: .3rem 0; padding: .35rem .6rem; border-radius: 4px; flex-basis: 100%; }
/* A notice's region stays in the page, empty, so what fills it later is announced. */
.notice:empty { margin: 0; padding: 0; border: 0; }
.notice-error { background: #fdecec; color: var(--bad); border: 1px solid var(--bad); }
.notice-ok { background: #e9f6ee; color: var(--ok); border: 1px solid var(--ok); }
.notice-info { background: #eef3fb; border: 1px solid var(--accent); }
.editor-grid { display: grid; gap: .75rem; align-items: start;
  grid-template-columns: minmax(14rem, 18rem) minmax(0, 1fr) minmax(16rem, 20rem); }
@media (max-width: 75rem) { .editor-grid { grid-template-columns: minmax(13rem, 16rem) minmax(0, 1fr); }
  .editor-grid .side { grid-column: 1 / -1; display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; } }
@media (max-width: 48rem) { .editor-grid, .editor-grid .side { grid-template-columns: minmax(0, 1fr); }
  .editor-toolbar { position: static; } .tool-group + .tool-group { border-left: 0; padding-left: 0; } }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .7rem;
  min-width: 0; }
.panel h2 { font-size: 1rem; }
.side .panel + .panel { margin-top: .75rem; }
@media (max-width: 75rem) { .side .panel + .panel { margin-top: 0; } }
.tree { position: relative; height: min(70vh, 40rem); overflow: auto; border: 1px solid var(--line);
  border-radius: 4px; font-size: .86rem; }
@media (max-width: 48rem) { .tree { height: 16rem; } }
.tree.empty { padding: .6rem; height: auto; }
.tree-space { position: relative; contain: strict; }
.tree-row { position: absolute; left: 0; right: 0; height: 28px; line-height: 28px; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; cursor: default; padding-right: .4rem;
  border: 1px solid transparent; }
.tree-row:hover { background: #f1f4fa; }
.tree-row[aria-selected=true] { background: #dce7fb; border-color: var(--accent); }
.tree-row:focus-visible { outline-offset: -3px; }
.tree-row .twisty { display: inline-block; width: 1.5rem; text-align: center; color: var(--muted);
  cursor: pointer; }
.tree-row .tag { font-weight: 600; font-family: ui-monospace, monospace; }
.tree-row .id { color: #7a3e00; font-family: ui-monospace, monospace; }
.tree-row .classes { color: #2a6a2a; font-family: ui-monospace, monospace; }
.tree-row .text { color: var(--muted); }
.tree-row.has-problem { box-shadow: inset 3px 0 0 var(--bad); }
.tree-row .problem-mark { color: var(--bad); }
.tree-row.drop-before { box-shadow: inset 0 3px 0 var(--accent); }
.tree-row.drop-after { box-shadow: inset 0 -3px 0 var(--accent); }
.tree-row.drop-inside { background: #e6eefb; outline: 2px dashed var(--accent); }
.tree.read-only .tree-row[aria-selected=true] { background: #eee; border-color: #777; }
.stage { overflow: hidden; }
.device { position: relative; margin: 0 auto; border: 1px solid #8a8a96; background: #fff;
  box-shadow: 0 1px 6px rgba(0,0,0,.12); overflow: hidden; }
.device.read-only { border-style: dashed; }
.device-inner { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.frame-host, .frame-host iframe, .overlay { position: absolute; inset: 0; width: 100%; height: 100%;
  border: 0; }
/* Its own layer, closed to the page around it: moving a mark repaints the marks alone, never the
   preview under them, and lays out nothing outside. */
.overlay { pointer-events: none; overflow: hidden; contain: strict; will-change: transform; }
.mark { position: absolute; box-sizing: border-box; }
.mark-hover { outline: 1px dashed #1a56b8; background: rgba(26, 86, 184, .05); }
.mark-selected { outline: 2px solid #1a56b8; outline-offset: 0; }
.mark-editing { outline: 2px solid #f5a623; }
.mark-problem { outline: 2px dashed var(--bad); }
.mark-label { position: absolute; left: -1px; top: -1.25rem; background: #1a56b8; color: #fff;
  font: 600 11px/1.2rem ui-monospace, monospace; padding: 0 .3rem; white-space: nowrap; }
.mark-drop.drop-before { border-top: 3px solid #f5a623; }
.mark-drop.drop-after { border-bottom: 3px solid #f5a623; }
.mark-drop.drop-inside { outline: 3px dashed #f5a623; background: rgba(245, 166, 35, .08); }
.is-read-only .canvas-panel { background: #f6f6f6; }
.attributes .attribute { display: grid; grid-template-columns: 5.5rem minmax(0, 1fr) auto;
  gap: .3rem; align-items: center; margin: .25rem 0; }
.attributes label { margin: 0; font-family: ui-monospace, monospace; font-weight: 600;
  overflow-wrap: anywhere; }
.attributes input { width: 100%; }
.attributes input[readonly] { background: #f3f3f3; }
.link-button { background: none; border: 0; color: var(--accent); text-decoration: underline; padding: 0 .2rem; }
.add-attribute fieldset, .placement { border: 1px solid var(--line); border-radius: 4px; margin: .5rem 0; }
.add-attribute input { width: 100%; }
.placement .choice { display: block; font-weight: 400; }
.blocks { display: grid; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); gap: .35rem; }
.raw-html textarea, .edit-html textarea { width: 100%; }
.problems .count { font-weight: 400; color: var(--muted); }
.problem-list { padding-left: 1.1rem; margin: .3rem 0; }
.problem-list li { margin: .25rem 0; }
.problem-list .error-item strong { color: var(--bad); }
.breadcrumb ol { display: flex; flex-wrap: wrap; list-style: none; margin: 0 0 .4rem; padding: 0;
  font: .82rem ui-monospace, monospace; }
.breadcrumb li + li::before { content: '›'; margin: 0 .3rem; color: var(--muted); }
.breadcrumb [aria-current] { font-weight: 700; }
.history > details > summary h2 { display: inline; margin: 0; }
.stale-dialog { max-width: 40rem; border: 1px solid var(--line); border-radius: 8px; }
.stale-dialog::backdrop { background: rgba(0, 0, 0, .35); }
`;
