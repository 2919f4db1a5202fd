"""``pyshadow report --html``: one self-contained page, rendered in headless Chromium (Debian's ``chromium``).

The page is loaded from a ``file://`` URL with the network closed to it; after its script ran, the DOM is dumped and
its tables read back: Table 3, coverage and pass@k hold the numbers of the CSVs, the per-problem table links to each
problem's drill-down, the drill-down shows each candidate's checks, shadow text, message and findings, and a click
on a header sorts (numbers as numbers, "—" last). A screenshot is kept in the test's tmp dir. Where Chromium is
absent the browser tests skip, saying so; the page's own content is checked without a browser too.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pyshadow.cli import main
from pyshadow.paths import PROBLEMS_DIR
from pyshadow.score.report import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install "
                                    "chromium); the report page's browser test needs it")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--host-resolver-rules=MAP * ~NOTFOUND"]  # no host resolves: anything fetched from the network fails


@pytest.fixture(scope="module")
def kernel_page(tmp_path_factory, kernel_lean_exe):
    """The bundled samples scored in the kernel tier, reported with --html."""
    folder = tmp_path_factory.mktemp("html")
    results = folder / "samples.jsonl"
    assert main(["score", str(PROBLEMS_DIR), str(PROBLEMS_DIR), "-o", str(results), "--tier", "kernel",
                 "-j", "2"]) == 0
    assert main(["report", str(results), "-o", str(folder / "out"), "--problems", str(PROBLEMS_DIR), "--html"]) == 0
    return folder / "out", results


class _Tables(HTMLParser):
    """Every <table id=…> of a page as rows of cell texts (header row first), plus the ids and hrefs seen."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.srcs: list[str] = []
        self.attrs: dict[str, dict[str, str | None]] = {}
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
            self.attrs[a["id"]] = a
        if tag == "body":
            self.attrs["body"] = a
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        if a.get("src"):
            self.srcs.append(a["src"])
        if tag == "table" and a.get("id"):
            self._table = a["id"]
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _parse(text: str) -> _Tables:
    parser = _Tables()
    parser.feed(text)
    return parser


def _csv(path: Path) -> list[list[str]]:
    return list(csv.reader(path.open(encoding="utf-8")))


def _chromium(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp / 'profile'}", *extra, page.resolve().as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _rendered(page: Path, tmp: Path) -> str:
    """The DOM after the page's script ran (``--dump-dom``)."""
    done = _chromium(page, tmp, "--virtual-time-budget=5000", "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_page_is_self_contained_and_holds_the_csv_tables(kernel_page):
    out, _ = kernel_page
    text = (out / "report.html").read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#|data:)""", text), "the page must fetch nothing"
    assert "<link" not in text and "@import" not in text and "http://" not in text and "https://" not in text
    page = _parse(text)
    assert page.tables["table3-kernel-table"] == _csv(out / "table3.csv")
    assert page.tables["coverage-kernel"] == _csv(out / "coverage.csv")
    assert page.tables["passk-kernel"] == _csv(out / "pass_at_k.csv")
    assert page.tables["per-problem-kernel"] == _csv(out / "per_problem.csv")
    assert any(s.startswith("data:image/png;base64,") for s in page.srcs)  # the figure is inline


@needs_chromium
def test_page_renders_in_headless_chromium(kernel_page, tmp_path):
    out, results = kernel_page
    dom = _rendered(out / "report.html", tmp_path)
    page = _parse(dom)
    assert page.attrs["body"].get("data-ready") == "1", "the page's script did not run to its end"
    # the rendered tables are the report's numbers
    assert page.tables["table3-kernel-table"] == _csv(out / "table3.csv")
    assert page.tables["passk-kernel"][0][:6] == ["System", "Problems", "Submitted", "Samples",
                                                  "Samples per problem", "pass@1 %"]
    per_problem = page.tables["per-problem-kernel"]
    assert len(per_problem) - 1 == len({p.parent.name for p in PROBLEMS_DIR.glob("*/problem.toml")})
    # every problem id links to its drill-down, which is on the page
    targets = [h[1:] for h in page.hrefs if h.startswith("#p-")]
    assert len(targets) == len(per_problem) - 1 and set(targets) <= page.ids
    # the drill-down shows a failing candidate's checks: shadow text and message
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    failing = next(r for r in rows if not r["sa_pass"] and r["checks"] and not r["audit"])
    check = next(c for c in failing["checks"] if not c["passed"])
    assert check["message"] in dom.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")
    assert check["text"].split(";")[0].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in dom
    audited = next(r for r in rows if r["audit"])
    assert "Trust-gate findings" in dom and audited["audit"][0]["kind"] in dom
    shot = tmp_path / "report.png"
    done = _chromium(out / "report.html", tmp_path, "--window-size=1280,1600", f"--screenshot={shot}")
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000


@needs_chromium
def test_a_header_click_sorts_numbers_as_numbers(tmp_path):
    """Coverage % sorted by a click in the real browser: descending on the second click, "—" cells last."""
    rows = []
    for system, submitted in (("a", 1), ("b", 10), ("c", 2)):
        for i in range(submitted):
            rows.append({"problem_id": f"p{i}", "system": system, "tier": "full", "level": "L1", "compiled": True,
                         "sa_pass": i % 2 == 0, "sa_pass_soft": 1.0, "fwd_all": True, "backward": i % 2 == 0,
                         "audit": [], "checks": []})
    write_report(rows, tmp_path / "out", {f"p{i}": "L1" for i in range(12)}, plots=False, html=True)
    page = tmp_path / "out" / "report.html"
    probe = ("<script>var t=document.getElementById('coverage-full');var th=t.querySelectorAll('th')[3];"
             "th.click();th.click();var o=[];for(var r of t.tBodies[0].rows)o.push(r.cells[0].textContent);"
             "document.body.setAttribute('data-order',o.join(','));"
             "document.body.setAttribute('data-sort',th.getAttribute('aria-sort'));</script></body>")
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", probe), encoding="utf-8")
    body = _parse(_rendered(probed, tmp_path)).attrs["body"]
    # 10/12 > 2/12 > 1/12: as text "8.3" would sort above "16.7" and "83.3"
    assert body.get("data-order") == "b,c,a" and body.get("data-sort") == "descending"


def test_both_tiers_and_samples_on_one_page(tmp_path):
    base = {"problem_id": "p1", "level": "L1", "compiled": True, "fwd_all": True, "backward": True, "audit": [],
            "checks": [{"name": "T:forward:1", "kind": "forward", "passed": False, "message": "type mismatch <x>",
                        "text": "a < b", "shadow": 1}]}
    rows = [dict(base, system="s", tier="full", sample=str(k), sa_pass=k == 0, sa_pass_soft=1.0) for k in range(5)]
    rows.append(dict(base, system="s", tier="kernel", sa_pass=False, sa_pass_soft=0.5, reason="shapes differ"))
    write_report(rows, tmp_path, {"p1": "L1", "p2": "L2"}, plots=False, html=True)
    page = _parse((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert {"tier-full", "tier-kernel", "p-full-p1", "p-kernel-p2"} <= page.ids
    passk = dict(zip(page.tables["passk-full"][0], page.tables["passk-full"][1]))
    # one of five samples passes on p1, p2 not submitted: pass@1 = (1/5)/2, pass@5 = 1/2
    assert passk["pass@1 %"] == "10.0" and passk["pass@5 %"] == "50.0" and passk["pass@10 %"] == "—"
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "type mismatch &lt;x&gt;" in text and "<x>" not in text  # messages are escaped, never markup
