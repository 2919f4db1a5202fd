"""What every labelled pair family's test checks the same way: its results, that no changed pair passes, that the
first run's recall (and undecided rate) hold, that spelling-only pairs pass, that the rows and builder agree."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from pyshadow.kernel.pairs import evaluate, read_pairs, summarize, summary_markdown

FIXTURES = Path(__file__).parent / "fixtures" / "pairs"
SPELLING = ("whitespace only", "notation only", "precedence")
# the fields and `diff` values of a row of an independent family (olympiad25, fresh26)
FIELDS = {"id", "source_a", "source_b", "a", "a_context", "b", "b_context", "diff", "same_meaning", "note",
          "unsure", "origin"}
DIFFS = {"whitespace only", "notation only", "binder style", "hypothesis order/bundling",
         "equivalent constant/API", "casts", "type changed", "hypothesis added/removed", "precedence", "other"}


def family_results(path: Path, lean):
    return evaluate(read_pairs(path), lean, n_jobs=2)


def changed_passed(results) -> list[str]:
    return [r.pair.id for r in results if r.verdict == "pass" and not r.pair.same_meaning]


def assert_first_run_holds(results, *, pairs: int, same_meaning: int, recall_floor: float,
                           undecided_ceiling: float | None = None, spelling_passes: bool = True) -> dict:
    """The overall figures against the first run's floors; returns them."""
    overall = summarize(results)["overall"]
    assert overall["pairs"] == pairs and overall["same_meaning"] == same_meaning
    assert overall["recall"] >= recall_floor, summary_markdown(summarize(results))
    if undecided_ceiling is not None:
        assert overall["undecided_rate"] <= undecided_ceiling, summary_markdown(summarize(results))
    if spelling_passes:  # spelling differences are the term reader's job: all passed on the first run
        for r in results:
            if r.pair.same_meaning and r.pair.diff in SPELLING:
                assert r.verdict == "pass", (r.pair.id, r.reason)
    return overall


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def builder(name: str):
    """The family's build script as a module (its LABELS and commits)."""
    spec = importlib.util.spec_from_file_location(name, FIXTURES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def labels(path: Path) -> dict:
    return {r["id"].split("/", 1)[1]: (r["same_meaning"], r["diff"], r["note"], r["unsure"]) for r in rows(path)}
