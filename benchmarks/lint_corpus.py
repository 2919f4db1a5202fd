"""How fast ``pyshadow lint`` is: ``python benchmarks/lint_corpus.py [CORPUS.jsonl …] [--copies N]``.

Lints every statement of the corpora (default: the shared dev corpus and the two proxy corpora in
tests/fixtures/corpus, 2,608 statements) ``--copies`` times (default: enough for ≥ 6,000 statements), on one core,
CPU time measured with ``time.process_time``. The term reader memoises parses by text, so its cache is emptied
before each copy: every copy costs what new statements would. Bar: 6,000 statements in under 10 s. Not a timed
test; the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from pyshadow.corpus import read_corpus  # noqa: E402
from pyshadow.lint import lint_statement  # noqa: E402
from pyshadow.syntax import terms  # noqa: E402

DEFAULTS = [REPO.parent / "shared" / "corpora" / "dev.jsonl",
            REPO / "tests" / "fixtures" / "corpus" / "extra.jsonl",
            REPO / "tests" / "fixtures" / "corpus" / "mathlib_sample.jsonl"]


def clear_term_cache() -> None:
    """Empty the term reader's parse memo (``read_term`` caches by text), so a copy costs what new text would."""
    for cached in vars(terms).values():
        if hasattr(cached, "cache_clear"):
            cached.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--copies", type=int, default=0)
    args = parser.parse_args(argv)
    corpora = args.corpora or [p for p in DEFAULTS if p.exists()]
    statements = [e.statement for path in corpora for e in read_corpus(path) if not e.error]
    copies = args.copies or -(-6000 // max(1, len(statements)))
    findings, elapsed = 0, 0.0
    for _ in range(copies):
        clear_term_cache()
        start = time.process_time()
        findings += sum(len(lint_statement(s)) for s in statements)
        elapsed += time.process_time() - start
    batch = statements * copies
    print(f"linted {len(batch)} statements ({len(statements)} distinct × {copies}) in {elapsed:.2f} s CPU "
          f"({len(batch) / elapsed:,.0f} statements/s), {findings} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
