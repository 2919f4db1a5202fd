"""The report as one self-contained web page (``pyshadow report --html``): nothing is fetched — CSS, script and the
figure (a ``data:`` PNG) are inline, so the file opens from disk, offline, and can be mailed or archived as is.

The page holds, per tier, the tables of ``pyshadow.score.report_tables`` (Table 3 per system × level, coverage,
pass@k and the per-sample table, buckets, per problem, failures, what was not scored), each sortable by a click on
a column header (numbers as numbers, ``—`` last), and a drill-down: per problem, each candidate's checks (name,
kind, verdict, the shadow's text, the failing message), its first reason and the trust gate's findings. A cell of
the per-problem table links to that problem's drill-down.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .metrics import natural_key
from .report_tables import (
    PASS_AT_K_NOTE,
    SKELETON_LLM_NOTE,
    ReportTables,
    bucket_header,
    bucket_legend,
    first_reason,
    row_bucket,
)

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#1b1b1b}
h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.6em}h3{font-size:1.08em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:13px}
th,td{border:1px solid #d0d0d0;padding:2px 7px;vertical-align:top;overflow-wrap:anywhere}
th{background:#f1f3f5;position:sticky;top:0}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
table.checks td:nth-child(2),table.checks td:nth-child(3){white-space:nowrap;overflow-wrap:normal}
.pass{color:#11691c}.fail{color:#a4161a}.undecided{color:#8a5a00}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font-size:12px}
details{margin:.3em 0;border:1px solid #e0e0e0;border-radius:4px;padding:.2em .6em}
summary{cursor:pointer}.note{color:#555;max-width:60em}img{max-width:100%}
input#filter{margin:.4em 0;padding:3px 6px;width:24em}
"""

# Sorting: a click on a header sorts the body by that column (again: the other way); cells that read as numbers
# (a trailing % allowed) compare as numbers and before text; "—" and empty cells go last either way.
_JS = """
(function(){
function key(td){var t=td.textContent.trim();if(t==='—'||t==='')return null;
  var m=t.replace(/%$/,'');var n=Number(m);return isNaN(n)?t.toLowerCase():n;}
function cmp(a,b){if(a===null)return b===null?0:1;if(b===null)return -1;
  if(typeof a===typeof b)return a<b?-1:a>b?1:0;return typeof a==='number'?-1:1;}
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('thead th').forEach(function(th,col){
    th.addEventListener('click',function(){
      var asc=th.getAttribute('aria-sort')!=='ascending';
      table.querySelectorAll('thead th').forEach(function(o){o.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',asc?'ascending':'descending');
      var body=table.tBodies[0];
      var keyed=Array.prototype.map.call(body.rows,function(r,i){return [key(r.cells[col]),i,r];});
      keyed.sort(function(x,y){var a=x[0],b=y[0],c=cmp(a,b);
        if(a!==null&&b!==null&&!asc)c=-c;return c||x[1]-y[1];});
      keyed.forEach(function(k){body.appendChild(k[2]);});
    });
  });
});
var box=document.getElementById('filter');
if(box)box.addEventListener('input',function(){var q=box.value.toLowerCase();
  document.querySelectorAll('details.problem').forEach(function(d){
    d.style.display=d.textContent.toLowerCase().indexOf(q)>=0?'':'none';});});
document.body.setAttribute('data-ready','1');
})();
"""

_NUMBER = re.compile(r"^-?\d+(\.\d+)?%?$|^\d+/\d+ ")


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def anchor(problem_id: str, tier: str = "") -> str:
    """The id of a problem's drill-down (per tier: a page may hold both)."""
    return "p-" + (tier + "-" if tier else "") + re.sub(r"[^A-Za-z0-9_.-]", "_", problem_id)


def html_table(headers: Sequence[str], body: Sequence[Sequence[Any]], *, table_id: str = "",
               links: Mapping[int, Mapping[str, str]] | None = None) -> str:
    """A sortable table; ``links`` maps a column to {cell text → href} (the per-problem table's problem ids)."""
    links = links or {}
    out = [f'<table class="sortable"{f" id={_e(table_id)!r}" if table_id else ""}>',
           "<thead><tr>" + "".join(f'<th scope="col">{_e(h)}</th>' for h in headers) + "</tr></thead><tbody>"]
    for row in body:
        cells = []
        for col, value in enumerate(row):
            text = str(value)
            cls = ' class="num"' if _NUMBER.match(text) or text == "—" and col else ""
            href = links.get(col, {}).get(text)
            inner = f'<a href="{_e(href)}">{_e(text)}</a>' if href else _e(text)
            cells.append(f"<td{cls}>{inner}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _verdict(passed: Any, undecided: Any = False) -> str:
    if undecided:
        return '<span class="undecided">undecided</span>'
    return '<span class="pass">pass</span>' if passed else '<span class="fail">fail</span>'


def candidate_html(row: Mapping[str, Any]) -> str:
    """One candidate's drill-down: bucket, first reason, findings, each check with its shadow text and message."""
    tier = str(row.get("tier", "full"))
    name = _e(row.get("system")) + (f" · sample {_e(row['sample'])}" if row.get("sample") else "")
    parts = [f"<h4>{name} — {_e(bucket_header(row_bucket(row), tier))}</h4>",
             f'<p class="note">File: <code>{_e(row.get("origin", ""))}</code></p>']
    reason = first_reason(row)
    if reason:
        parts.append(f"<p>First reason: <code>{_e(reason)}</code></p>")
    findings = row.get("audit") or []
    if findings:
        parts.append("<p>Trust-gate findings:</p><ul>" + "".join(
            f"<li><code>{_e(f.get('kind'))}</code> at line {_e(f.get('line'))}: <code>{_e(f.get('excerpt'))}</code>"
            "</li>" for f in findings) + "</ul>")
    if row.get("sorry"):
        parts.append(f"<p>`sorry` allowed in proofs: {_e(len(row['sorry']))}</p>")
    checks = row.get("checks") or []
    if checks:
        parts.append('<table class="checks"><thead><tr><th>Check</th><th>Kind</th><th>Verdict</th>'
                     "<th>Shadow statement</th><th>Message</th></tr></thead><tbody>")
        for c in checks:
            parts.append(f"<tr><td><code>{_e(c.get('name'))}</code></td><td>{_e(c.get('kind', ''))}</td>"
                         f"<td>{_verdict(c.get('passed'), c.get('undecided'))}</td>"
                         f"<td><pre>{_e(c.get('text') or '')}</pre></td>"
                         f"<td><pre>{_e(c.get('message') or '')}</pre></td></tr>")
        parts.append("</tbody></table>")
    elif not reason:
        parts.append("<p>No check recorded.</p>")
    return '<div class="candidate">' + "\n".join(parts) + "</div>"


def drilldown_html(rows: Sequence[Mapping[str, Any]], tables: ReportTables) -> str:
    """Per problem of the set (those that did not load included), a collapsible section of its candidates."""
    by_problem: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_problem.setdefault(str(row["problem_id"]), []).append(row)
    not_loaded = {r[0]: r[1] for r in tables.not_loaded[1]}
    out = []
    for pid, level, *_ in tables.per_problem[1]:
        mine = sorted(by_problem.get(pid, []), key=lambda r: (natural_key(str(r.get("system"))),
                                                              natural_key(r.get("sample"))))
        passed = sum(bool(r.get("sa_pass")) and row_bucket(r) == "both" for r in mine)
        summary = (f"<code>{_e(pid)}</code> · level {_e(level)} · "
                   + ('<span class="fail">did not load</span>' if pid in not_loaded
                      else f"{passed}/{len(mine)} candidates pass"))
        body = ([f"<p>Did not load: <code>{_e(not_loaded[pid])}</code></p>"] if pid in not_loaded else []) \
            + [candidate_html(r) for r in mine] + ([] if mine or pid in not_loaded else ["<p>No candidate.</p>"])
        out.append(f'<details class="problem" id="{_e(anchor(pid, tables.tier))}"><summary>{summary}</summary>'
                   + "\n".join(body) + "</details>")
    return "\n".join(out)


def tier_html(tables: ReportTables, rows: Sequence[Mapping[str, Any]], *, heading: str = "h2",
              figure: bytes | None = None) -> str:
    """One tier's section: the tables (sortable), the figure, the drill-down."""
    h = heading
    t = tables.tier
    sub = "h3" if h == "h2" else "h4"
    links = {0: {r[0]: "#" + anchor(r[0], t) for r in tables.per_problem[1]}}
    parts = [f'<{h} id="table3-{t}">Pass rates by system and level (Table 3)</{h}>',
             html_table(*tables.table3, table_id=f"table3-{t}-table")]
    if figure:
        parts.append(f'<img alt="pass rates per system and level" src="data:image/png;base64,'
                     f'{base64.b64encode(figure).decode("ascii")}">')
    parts += [f"<{h}>Coverage</{h}>",
              f'<p class="note">Of the benchmark\'s {tables.problems} problems (those that did not load '
              "included); the leaderboard columns count a problem not submitted, or that did not load, as a "
              "failure.</p>", html_table(*tables.coverage, table_id=f"coverage-{t}"),
              f"<{h}>Samples: pass@k and mean@k</{h}>", f'<p class="note">{_e(PASS_AT_K_NOTE)}</p>',
              html_table(*tables.pass_at_k, table_id=f"passk-{t}"),
              f"<{sub}>Per system and problem</{sub}>", html_table(*tables.samples, table_id=f"samples-{t}"),
              f"<{h}>Buckets</{h}>", f'<p class="note">{_e(bucket_legend(t))}</p>',
              html_table(*tables.buckets, table_id=f"buckets-{t}")]
    if tables.skeleton_llm:
        parts += [f"<{h}>Skeleton SA-Pass and skeleton + LLM</{h}>", f'<p class="note">{_e(SKELETON_LLM_NOTE)}</p>',
                  html_table(*tables.skeleton_llm, table_id=f"skeleton-llm-{t}")]
    parts += [f"<{h}>Per problem</{h}>", '<p class="note">A problem id opens its drill-down below.</p>',
              html_table(*tables.per_problem, table_id=f"per-problem-{t}", links=links)]
    for title, table, key in (("Problems that did not load", tables.not_loaded, "not-loaded"),
                              ("Inputs not scored", tables.skipped, "skipped"),
                              ("Failures and their first reason", tables.failures, "failures")):
        parts.append(f"<{h}>{title}</{h}>")
        parts.append(html_table(*table, table_id=f"{key}-{t}") if table[1] else "<p>None.</p>")
    parts += [f"<{h}>Each problem's candidates</{h}>",
              '<p class="note">Per candidate: its checks (the shadow statement each one proves, the verdict, '
              "Lean's or the skeleton search's message), its first reason and the trust gate's findings.</p>",
              drilldown_html(rows, tables)]
    return "\n".join(parts)


def render_page(sections: Sequence[tuple[str, ReportTables, Sequence[Mapping[str, Any]], bytes | None]],
                intro: Sequence[str]) -> str:
    """The whole page: ``intro`` paragraphs, then one section per (title, tables, rows, figure PNG) — a title of
    "" for a report of one tier."""
    body = ["<h1>pyshadow report</h1>", *(f"<p>{_e(line)}</p>" for line in intro if line),
            '<input id="filter" type="search" placeholder="filter the drill-down (problem, system, message)">']
    several = len(sections) > 1
    for title, tables, rows, figure in sections:
        if several:
            body.append(f'<h2 id="tier-{tables.tier}">{_e(title)}</h2>')
        body.append(tier_html(tables, rows, heading="h3" if several else "h2", figure=figure))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>pyshadow report</title><style>{_CSS}</style></head>\n<body>\n" + "\n".join(body)
            + f"\n<script>{_JS}</script>\n</body></html>\n")


def write_page(path: Path, sections: Sequence[tuple[str, ReportTables, Sequence[Mapping[str, Any]], bytes | None]],
               intro: Sequence[str]) -> Path:
    path.write_text(render_page(sections, intro), encoding="utf-8")
    return path
