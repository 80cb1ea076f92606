/**
 * The HTML report's stylesheet, inlined in the page (the report fetches nothing). Its
 * hash goes into the page's Content-Security-Policy, so no other style applies.
 */
export const htmlStyle = `
:root { --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #8c959f; --error: #8250df; --line: #d0d7de; --muted: #57606a; --bg-soft: #f6f8fa; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2328; margin: 0 auto; padding: 16px 24px 48px; max-width: 1200px; }
h1 { font-size: 22px; margin: 8px 0 4px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
h2 { font-size: 18px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0; white-space: pre-wrap; word-break: break-all; max-height: 420px; overflow: auto; }
.facts { color: var(--muted); margin: 0 0 12px; }
h1 small { font-size: 14px; font-weight: 400; color: var(--muted); }
.facts span + span::before { content: " · "; }
.verdict { font-size: 13px; padding: 2px 10px; border-radius: 12px; color: #fff; }
.verdict.failed { background: var(--fail); } .verdict.incomplete, .verdict.interrupted { background: var(--error); } .verdict.passed { background: var(--pass); }
.totals { display: flex; gap: 8px; flex-wrap: wrap; margin: 8px 0; }
.badge { display: inline-block; min-width: 52px; text-align: center; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }
.tag { font-size: 11px; padding: 0 6px; border: 1px solid currentColor; border-radius: 8px; color: var(--muted); white-space: nowrap; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.warn { background: var(--warn); } .badge.skip { background: var(--skip); } .badge.error { background: var(--error); }
.chart { width: 100%; border-collapse: collapse; }
.chart td, .chart th { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
.chart th { font-weight: 600; color: var(--muted); font-size: 12px; }
.chart .label { white-space: nowrap; width: 1%; }
.chart .bar { width: 55%; }
.chart .bar svg { display: block; width: 100%; height: 18px; border-radius: 3px; background: var(--bg-soft); }
.chart .num { text-align: right; font-variant-numeric: tabular-nums; width: 1%; }
.chart .pct { white-space: nowrap; font-weight: 600; }
.chart tr.total td { font-weight: 600; border-top: 2px solid var(--line); }
rect.pass { fill: var(--pass); } rect.fail { fill: var(--fail); } rect.warn { fill: var(--warn); } rect.skip { fill: var(--skip); } rect.error { fill: var(--error); }
.legend { display: flex; gap: 14px; color: var(--muted); font-size: 12px; margin: 6px 0; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.legend i.pass { background: var(--pass); } .legend i.fail { background: var(--fail); } .legend i.warn { background: var(--warn); } .legend i.skip { background: var(--skip); } .legend i.error { background: var(--error); }
.banner { border-left: 4px solid var(--fail); background: #fff1f0; padding: 8px 12px; margin: 12px 0; }
.causes li, .baseline li { margin: 3px 0; }
.filters { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; position: sticky; top: 0; z-index: 1; }
.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: 10px; flex-wrap: wrap; align-items: center; }
.filters legend { float: left; font-weight: 600; margin-right: 6px; }
.filters label { white-space: nowrap; cursor: pointer; }
.filters input[type=search] { padding: 3px 6px; min-width: 200px; }
.filters button, button.copy { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid var(--line); border-radius: 5px; background: #fff; cursor: pointer; }
details.check { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: 6px 0; background: #fff; }
details.check.pass { border-left-color: var(--pass); } details.check.fail { border-left-color: var(--fail); } details.check.warn { border-left-color: var(--warn); } details.check.skip { border-left-color: var(--skip); } details.check.error { border-left-color: var(--error); }
details.check > summary { cursor: pointer; padding: 6px 10px; display: flex; gap: 10px; align-items: baseline; list-style: none; }
details.check > summary::-webkit-details-marker { display: none; }
details.check > summary .name { font-weight: 600; white-space: nowrap; }
details.check > summary .msg { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; flex: 1; }
.check-body { padding: 4px 14px 12px; border-top: 1px solid var(--line); }
.check-body dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; margin: 8px 0; }
.check-body dt { font-weight: 600; color: var(--muted); }
.check-body dd { margin: 0; min-width: 0; }
.exchange { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 4px 10px 8px; }
.exchange > summary { cursor: pointer; font-weight: 600; }
.exchange-line { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; color: var(--muted); margin: 2px 0; }
.curl-head { display: flex; gap: 8px; align-items: center; margin-top: 6px; }
.offscreen { position: fixed; left: -9999px; top: 0; }
.cut { color: var(--muted); font-style: italic; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media print { .filters, button.copy { display: none; } details.check { break-inside: avoid; } }
`;
