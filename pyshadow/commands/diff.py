"""``pyshadow diff REV_A REV_B [PROBLEMS_DIR]``: what changed in a problem set between two git revisions
(docs/commands.md#diff)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import BadInput, Unavailable
from ..paths import default_problems_dir
from ..robustness.diff import compare_results, diff_revisions, load_results, render_text
from .helptext import add_command

ROBUSTNESS_JSON = "robustness.json"


def register(subparsers) -> None:
    p = add_command(subparsers, "diff", "compare two git revisions of a problem set (shadows, checkers, results)",
                    "diff HEAD~1 HEAD problems")
    p.add_argument("rev_a", metavar="REV_A", help="the older revision (commit, tag, HEAD~2 …)")
    p.add_argument("rev_b", metavar="REV_B", help="the newer revision")
    p.add_argument("problems", nargs="?", type=Path, metavar="PROBLEMS_DIR",
                   help="problems folder in the repository (default: ./problems)")
    p.add_argument("--results-a", metavar="FILE", help="results of REV_A (robustness.json or score JSONL)")
    p.add_argument("--results-b", metavar="FILE", help="results of REV_B")
    p.add_argument("--results", metavar="PATH", help="a repository path, read at both revisions")
    p.add_argument("--json", action="store_true", help="print the differences as JSON")
    p.set_defaults(handler=run)


def revision_reader(problems: Path):
    """A ``RevisionReader`` for ``problems``; gitpython (and with it the ``git`` executable) is needed only here,
    so every other command, ``--help`` included, works on a machine without git."""
    try:
        from ..robustness.revisions import RevisionReader
    except ImportError as err:  # gitpython missing, or it found no git executable (it refuses to import then)
        raise Unavailable(f"diff needs git (the git executable on PATH and the gitpython package): "
                          f"{str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__}") from None
    return RevisionReader(problems)


def _read_results(reader, rev: str, spec: str, *, repo_path: bool) -> tuple[str, str]:
    """(text, where it came from) for a results argument: a file on disk, or a repository path at ``rev``."""
    path = Path(spec)
    if not repo_path and path.exists():
        if path.is_dir():
            path = path / ROBUSTNESS_JSON
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except (OSError, UnicodeDecodeError) as err:
            raise BadInput(f"{path}: cannot read results: {err}") from err
    for candidate in (spec, f"{spec.rstrip('/')}/{ROBUSTNESS_JSON}"):
        data = reader.read(rev, candidate)
        if data is not None:
            return data.decode("utf-8", errors="replace"), f"{rev}:{candidate}"
    raise BadInput(f"results {spec!r}: neither a file on disk nor a file in the repository at {rev}")


def run(args: argparse.Namespace) -> int:
    if (args.results_a is None) != (args.results_b is None):
        raise BadInput("--results-a and --results-b go together (or use --results PATH for both revisions)")
    reader = revision_reader(args.problems or default_problems_dir())
    reader.commit(args.rev_a), reader.commit(args.rev_b)  # bad revisions are bad input before any work
    diff = diff_revisions(reader, args.rev_a, args.rev_b)
    pairs = []
    if args.results_a is not None:
        pairs.append((args.results_a, args.results_b, False))
    if args.results is not None:
        pairs.append((args.results, args.results, True))
    for spec_a, spec_b, in_repo in pairs:
        text_a, where_a = _read_results(reader, args.rev_a, spec_a, repo_path=in_repo)
        text_b, where_b = _read_results(reader, args.rev_b, spec_b, repo_path=in_repo)
        diff.results.append(compare_results(load_results(text_a, where_a), load_results(text_b, where_b),
                                            where_a, where_b))
    if args.json:
        print(json.dumps(diff.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_text(diff), end="")
    return 0

