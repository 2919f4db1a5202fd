"""How Lean's work is batched, and that the batching decides no verdict: ``lean_check``'s chunks over the Lean
processes and its one heartbeat budget per file (``pyshadow.kernel.lean_check``), and ``evaluate``'s shards
(``pyshadow.kernel.pairs``), each against the unbatched answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyshadow.kernel import pairs as pairs_module
from pyshadow.kernel.lean_check import MIN_PER_PROCESS, UNCHECKED, ACCEPTED, _chunks, _Plan, lean_check
from pyshadow.kernel.pairs import evaluate, read_pairs
from pyshadow.kernel.skeleton import SkeletonPair, skeleton_search
from pyshadow.syntax import parse_declaration

FIXTURES = Path(__file__).parent / "fixtures" / "pairs"


def _plans(groups: dict[str, int]) -> list[_Plan]:
    """Plans whose first shadow block is ``reference`` text, ``count`` of each."""
    return [_Plan(f"{ref}-{k}", [("statement", f"C {ref} {k}"), ("statement", ref)])
            for ref, count in groups.items() for k in range(count)]


def test_chunks_keep_one_references_plans_together_and_cover_every_plan_once():
    plans = _plans({"ref-a": 70, "ref-b": 5, "ref-c": 90, "ref-d": 75})
    chunks = _chunks(plans, 2)
    assert sorted(p.key for c in chunks for p in c) == sorted(p.key for p in plans)
    where = {p.blocks[1][1]: {i for i, c in enumerate(chunks) if p in c} for p in plans}
    assert all(len(found) == 1 for found in where.values()), where
    assert len(chunks) > 2  # more chunks than processes: the free process takes the next
    sizes = [sum(len(t) for p in c for _, t in p.blocks) for c in chunks]
    assert sizes == sorted(sizes, reverse=True)  # the largest first


def test_one_process_gets_one_chunk_and_few_plans_are_not_cut_small():
    plans = _plans({"ref-a": 100, "ref-b": 100})
    assert len(_chunks(plans, 1)) == 1
    few = _plans({f"ref-{k}": 1 for k in range(MIN_PER_PROCESS + 5)})
    assert len(_chunks(few, 2)) == 2


def _hypothesis(k: int) -> str:  # aime_1984_p15's hypothesis at `k`, its exponents written `(1 + 1)`
    return " + ".join(f"{v} ^ (1 + 1) / ({k} ^ (1 + 1) - {j} ^ (1 + 1))" for v, j in zip("xyzw", (1, 3, 5, 7))) + " = 1"


# eight of aime_1984_p15's hypotheses in one term: a statement's binders are elaborated one by one as a signature
# (elab/statements.py), so the numerals must share one term to exceed the budget together; and a bare numeral
# exponent is printed `(2 : Nat)` (elab/translate.py), so the exponents are compound: Lean's default instances
# decide their type, the search whose cost is exponential in the numerals of the term
LONG = ("theorem t (x y z w : ℝ) : (" + " ∧ ".join(_hypothesis(k) for k in range(2, 10))
        + ") → x ^ 2 + y ^ 2 + z ^ 2 + w ^ 2 = 36")
SHORT = "theorem t (x y : ℝ) (h₀ : x ^ 2 / (2 ^ 2 - 1) = 1) : x ^ 2 + y ^ 2 = 36"


@pytest.mark.kernel
def test_the_heartbeat_budget_cuts_off_a_statement_every_block_of_the_file_shares(kernel_lean_exe):
    """The budget is set once, at the top of the file, and bounds the statements inside their namespaces: the
    numerals under `^` of aime_1984_p15 (in the environment, without Init's default instances) exceed it and the
    pair is left unchecked, not waited for; the same shape with one such hypothesis is checked and accepted."""
    def check(key: str, text: str):
        pair = SkeletonPair(key, parse_declaration(text), parse_declaration(text), True, "", "")
        return lean_check([(pair, skeleton_search(pair))], kernel_lean_exe)[key]

    long, short = check("long", LONG), check("short", SHORT)
    assert long.status == UNCHECKED and "maximum number of heartbeats (20000)" in long.reason, long
    assert short.status == ACCEPTED, short


@pytest.mark.kernel
def test_sharded_pairs_get_the_rows_one_process_gives(kernel_lean_exe, monkeypatch):
    """Each shard is a process of its own; the rows, in order, are those of the unsharded run."""
    pairs = read_pairs(FIXTURES / "dev_pairs.jsonl")[:12]
    whole = [json.dumps(r.to_dict(), sort_keys=True) for r in evaluate(pairs, kernel_lean_exe, n_jobs=1)]
    monkeypatch.setattr(pairs_module, "SHARD_MIN", 4)
    sharded = [json.dumps(r.to_dict(), sort_keys=True) for r in evaluate(pairs, kernel_lean_exe, n_jobs=2)]
    assert sharded == whole
    assert len({json.loads(r)["verdict"] for r in whole}) > 1  # the slice has more than one verdict to keep


@pytest.mark.kernel
def test_a_shard_that_cannot_start_leaves_the_run_to_one_process(kernel_lean_exe, monkeypatch):
    """A pool that breaks (a caller's script that runs again when a shard imports it) is no lost row."""
    from concurrent.futures.process import BrokenProcessPool

    class Broken:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, *args):
            raise BrokenProcessPool("a shard died on start")

    pairs = read_pairs(FIXTURES / "dev_pairs.jsonl")[:4]
    whole = [r.to_dict() for r in evaluate(pairs, kernel_lean_exe, n_jobs=1)]
    monkeypatch.setattr(pairs_module, "SHARD_MIN", 2)
    monkeypatch.setattr(pairs_module, "ProcessPoolExecutor", Broken)
    assert [r.to_dict() for r in evaluate(pairs, kernel_lean_exe, n_jobs=2)] == whole
