"""What changed between two revisions of a problem set: problems, shadows, checker texts, and result files.

Pure comparisons over two snapshots (``pyshadow.robustness.snapshot``: parsed, decomposed and rendered at each
revision, never compared as raw text):

- problems and targets added or removed;
- per target, shadows added / removed / changed — keyed by their path (``.1``, ``.mp∀h_1``, ``.le``; a merged-in
  expert shadow by its kind and statement), changed meaning another kind or statement at the same path;
- checker texts added / removed / changed by name;
- the **cause** of each target's changes (shadows or checkers): when the generator changed between the revisions
  (``GENERATOR_SOURCES``: rules, types, checker builders, templates …), the problems of A are also rendered by B's
  generator (a third snapshot, ``X``). A → X is what the generator changed, X → B what the problem changed, so a
  shadow that changed because ``pyshadow/shadows/types.py`` now splits an equality differently is put down to the
  **generator** even though the shadows differ, an edited ``problem.toml`` to the **problem**, and a target both
  touched to ``generator and problem``. Without a generator change every change is the problem's;
- where result files are given for both revisions: which robustness-matrix cells (problem, target, variant,
  checker) and which candidates' verdicts (``pyshadow score`` rows: SA-Pass, forward, backward, compiled) changed.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import BadInput
from .matrix import FORMAT as ROBUSTNESS_FORMAT

GENERATOR, PROBLEM, BOTH = "generator", "problem", "generator and problem"


@dataclass
class ShadowChange:
    key: str
    before: dict | None
    after: dict | None

    @property
    def change(self) -> str:
        return "added" if self.before is None else "removed" if self.after is None else "changed"


@dataclass
class TargetDiff:
    problem: str
    target: str
    status: str  # added | removed | changed
    declaration: tuple[str | None, str | None] | None = None  # (before, after) when the header changed
    shadows: list[ShadowChange] = field(default_factory=list)
    checkers_added: list[str] = field(default_factory=list)
    checkers_removed: list[str] = field(default_factory=list)
    checkers_changed: list[str] = field(default_factory=list)
    cause: str | None = None  # GENERATOR | PROBLEM | BOTH, for a target present at both revisions
    error: tuple[str | None, str | None] | None = None

    @property
    def checker_changes(self) -> int:
        return len(self.checkers_added) + len(self.checkers_removed) + len(self.checkers_changed)


@dataclass
class CellChange:
    key: str  # "problem target variant checker" or "system/problem_id"
    before: Any
    after: Any


@dataclass
class ResultsDiff:
    kind: str  # "robustness" | "score"
    path_a: str
    path_b: str
    changes: list[CellChange] = field(default_factory=list)
    only_a: list[str] = field(default_factory=list)
    only_b: list[str] = field(default_factory=list)


@dataclass
class ProblemSetDiff:
    rev_a: str
    rev_b: str
    commit_a: str
    commit_b: str
    problems_dir: str
    problems_added: list[str] = field(default_factory=list)
    problems_removed: list[str] = field(default_factory=list)
    targets: list[TargetDiff] = field(default_factory=list)
    generator_files: list[str] = field(default_factory=list)
    generators: tuple[str, str] = ("", "")  # "revision" | "installed" at A and B
    notes: list[str] = field(default_factory=list)
    results: list[ResultsDiff] = field(default_factory=list)

    @property
    def generator_changed_checkers(self) -> int:
        return sum(t.checker_changes for t in self.targets if t.cause == GENERATOR)  # the generator's alone

    @property
    def empty(self) -> bool:
        return not (self.problems_added or self.problems_removed or self.targets
                    or any(r.changes or r.only_a or r.only_b for r in self.results))

    def to_dict(self) -> dict:
        data = asdict(self)
        for t, raw in zip(self.targets, data["targets"]):
            raw["shadows"] = [{"key": s.key, "change": s.change, "before": s.before, "after": s.after}
                              for s in t.shadows]
        data["generator_changed_checkers"] = self.generator_changed_checkers
        return data


# ---------------------------------------------------------------------------------------------------------------
# Snapshots


def compare_snapshots(a: dict, b: dict, mixed: dict | None = None) -> tuple[list[str], list[str], list[TargetDiff]]:
    """(problems added, problems removed, per-target differences) between two snapshots. ``mixed`` is A's problems
    rendered by B's generator, when the generator changed (see the module docstring); it decides each cause."""
    pa, pb = a.get("problems", {}), b.get("problems", {})
    added = sorted(set(pb) - set(pa))
    removed = sorted(set(pa) - set(pb))
    targets: list[TargetDiff] = []
    for pid in sorted(set(pa) | set(pb)):
        ta = pa.get(pid, {}).get("targets", {})
        tb = pb.get(pid, {}).get("targets", {})
        if pid in pa and pid in pb and pa[pid].get("error") != pb[pid].get("error"):
            targets.append(TargetDiff(pid, "", "changed", error=(pa[pid].get("error"), pb[pid].get("error"))))
        for name in sorted(set(ta) | set(tb)):
            if name not in ta:
                targets.append(_whole(pid, name, "added", tb[name]))
            elif name not in tb:
                targets.append(_whole(pid, name, "removed", ta[name]))
            else:
                diff = _compare_target(pid, name, ta[name], tb[name])
                if diff is not None:
                    if mixed is not None:
                        diff.cause = _cause(ta[name], mixed.get("problems", {}).get(pid, {}).get("targets", {})
                                            .get(name), tb[name])
                    targets.append(diff)
    return added, removed, targets


def _whole(pid: str, name: str, status: str, t: dict) -> TargetDiff:
    shadows = [ShadowChange(s["key"], None, s) if status == "added" else ShadowChange(s["key"], s, None)
               for s in t.get("shadows", [])]
    checkers = sorted(t.get("checkers", {}))
    diff = TargetDiff(pid, name, status, shadows=shadows)
    if status == "added":
        diff.checkers_added = checkers
    else:
        diff.checkers_removed = checkers
    return diff


def _compare_target(pid: str, name: str, a: dict, b: dict) -> TargetDiff | None:
    diff = TargetDiff(pid, name, "changed")
    if a.get("declaration") != b.get("declaration"):
        diff.declaration = (a.get("declaration"), b.get("declaration"))
    if a.get("error") != b.get("error"):
        diff.error = (a.get("error"), b.get("error"))
    sa = {s["key"]: s for s in a.get("shadows", [])}
    sb = {s["key"]: s for s in b.get("shadows", [])}
    for key in [*sa, *(k for k in sb if k not in sa)]:
        before, after = sa.get(key), sb.get(key)
        if before is None or after is None or (before["kind"], before["statement"]) != (after["kind"],
                                                                                      after["statement"]):
            diff.shadows.append(ShadowChange(key, before, after))
    ca, cb = a.get("checkers", {}), b.get("checkers", {})
    diff.checkers_added = sorted(set(cb) - set(ca))
    diff.checkers_removed = sorted(set(ca) - set(cb))
    diff.checkers_changed = sorted(n for n in set(ca) & set(cb) if ca[n] != cb[n])
    if diff.declaration or diff.shadows or diff.checker_changes or diff.error:
        # Without a snapshot of A's problems by B's generator: the problem, unless its inputs are all unchanged
        # (then only the checker builders or templates can have changed the texts).
        same_inputs = (diff.declaration is None and a.get("shadows") == b.get("shadows")
                       and a.get("mathlib") == b.get("mathlib") and diff.error is None)
        diff.cause = GENERATOR if same_inputs else PROBLEM
        return diff
    return None


def _rendering(t: dict | None) -> tuple:
    """What a target's rendering is made of (a snapshot record), for comparing causes."""
    if t is None:
        return (None,)
    shadows = tuple((s.get("key"), s.get("kind"), s.get("statement")) for s in t.get("shadows", []))
    return (t.get("declaration"), t.get("error"), shadows, tuple(sorted(t.get("checkers", {}).items())))


def _cause(a: dict, mixed: dict | None, b: dict) -> str:
    """GENERATOR when A's problem under B's generator already renders as B; PROBLEM when it renders as A (only the
    problem's change remains); BOTH when it is neither."""
    by_generator = _rendering(a) != _rendering(mixed)
    by_problem = _rendering(mixed) != _rendering(b)
    if by_generator and by_problem:
        return BOTH
    return GENERATOR if by_generator else PROBLEM


def diff_revisions(reader, rev_a: str, rev_b: str) -> ProblemSetDiff:
    """Snapshot both revisions with ``reader`` (a ``pyshadow.robustness.revisions.RevisionReader``) and compare."""
    snap_a, snap_b = reader.snapshot(rev_a), reader.snapshot(rev_b)
    generator_files = reader.changed_generator_files(rev_a, rev_b)
    mixed = None
    if generator_files and snap_b.generator == "revision":  # A's problems, B's generator: who changed what
        mixed = reader.snapshot(rev_a, generator_rev=rev_b)
    added, removed, targets = compare_snapshots(snap_a.data, snap_b.data, mixed.data if mixed else None)
    return ProblemSetDiff(rev_a, rev_b, snap_a.commit, snap_b.commit, str(reader.problems_rel), added, removed,
                          targets, generator_files, (snap_a.generator, snap_b.generator),
                          [*snap_a.notes, *snap_b.notes, *(mixed.notes if mixed else [])])


# ---------------------------------------------------------------------------------------------------------------
# Result files


def load_results(text: str, origin: str) -> tuple[str, dict[str, Any]]:
    """A results file as (kind, {key: verdict}): a robustness report (``robustness.json``) gives one entry per
    matrix cell; a ``pyshadow score`` results JSONL one per candidate (``system/problem_id``; a later line wins)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and data.get("format") == ROBUSTNESS_FORMAT:
            cells = {}
            for t in data.get("targets", []):
                for row in t.get("rows", []):
                    for checker, cell in row.get("cells", {}).items():
                        cells[f"{t['problem']} {t['target']} {row['id']} {checker}"] = cell.get("pass")
            return "robustness", cells
    verdicts: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run, as pyshadow score itself reads it
        if not isinstance(row, dict) or "problem_id" not in row:
            raise BadInput(f"{origin}: line {number}: neither a robustness report nor a score results row")
        key = f"{row.get('system')}/{row.get('problem_id')}"
        verdicts[key] = {k: row.get(k) for k in ("sa_pass", "compiled", "forward", "backward", "reason")}
    return "score", verdicts


def compare_results(a: tuple[str, dict], b: tuple[str, dict], path_a: str, path_b: str) -> ResultsDiff:
    (kind_a, va), (kind_b, vb) = a, b
    if kind_a != kind_b:
        raise BadInput(f"{path_a} is a {kind_a} file but {path_b} is a {kind_b} file: they cannot be compared")
    diff = ResultsDiff(kind_a, path_a, path_b)
    diff.only_a = sorted(set(va) - set(vb))
    diff.only_b = sorted(set(vb) - set(va))
    diff.changes = [CellChange(k, va[k], vb[k]) for k in sorted(set(va) & set(vb)) if va[k] != vb[k]]
    return diff


# ---------------------------------------------------------------------------------------------------------------
# Rendering


def _short(text: str | None, limit: int = 100) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _verdict_change(before: Any, after: Any) -> str:
    if isinstance(before, dict) and isinstance(after, dict):
        return "; ".join(f"{k}: {before.get(k)} → {after.get(k)}" for k in before if before.get(k) != after.get(k))
    word = {True: "pass", False: "fail", None: "—"}
    return f"{word.get(before, before)} → {word.get(after, after)}"


def render_text(d: ProblemSetDiff) -> str:
    lines = [f"pyshadow diff {d.rev_a} ({d.commit_a[:10]}) → {d.rev_b} ({d.commit_b[:10]}), {d.problems_dir}"]
    gen = f"generator: {d.generators[0]} at A, {d.generators[1]} at B"
    if d.generator_files:
        gen += f"; {len(d.generator_files)} generator file(s) changed: {', '.join(d.generator_files)}"
    lines.append(gen)
    lines += [f"note: {n}" for n in d.notes]
    if d.empty:
        lines.append("no differences")
        return "\n".join(lines) + "\n"
    if d.problems_added:
        lines.append(f"problems added ({len(d.problems_added)}): {', '.join(d.problems_added)}")
    if d.problems_removed:
        lines.append(f"problems removed ({len(d.problems_removed)}): {', '.join(d.problems_removed)}")
    by_gen = [t for t in d.targets if t.cause == GENERATOR]
    if by_gen:
        lines.append(f"checker texts changed by the generator: {d.generator_changed_checkers} checker(s) in "
                     f"{len(by_gen)} target(s)")
    for t in d.targets:
        head = f"{t.problem} — {t.target}" if t.target else t.problem
        lines.append(f"{head}: {t.status}" + (f" (changed by the {t.cause})" if t.cause else ""))
        if t.error:
            lines.append(f"  error: {t.error[0] or 'none'} → {t.error[1] or 'none'}")
        if t.declaration and t.status == "changed":
            lines.append(f"  reference: {_short(t.declaration[0])}")
            lines.append(f"          → {_short(t.declaration[1])}")
        for s in t.shadows:
            one = s.after or s.before
            where = f" {s.key}" if s.key == one["path"] else ""  # merged-in shadows have no path to show
            if s.change == "added":
                lines.append(f"  + shadow{where} ({one['kind']}): {_short(one['statement'])}")
            elif s.change == "removed":
                lines.append(f"  - shadow{where} ({one['kind']}): {_short(one['statement'])}")
            else:
                lines.append(f"  ~ shadow{where}: {s.before['kind']} {_short(s.before['statement'], 60)} → "
                             f"{s.after['kind']} {_short(s.after['statement'], 60)}")
        for sign, names in (("+", t.checkers_added), ("-", t.checkers_removed), ("~", t.checkers_changed)):
            if names and t.status == "changed":
                lines.append(f"  {sign} checker{'s' if len(names) > 1 else ''} {', '.join(names)}")
            elif names:
                lines.append(f"  {sign} {len(names)} checker(s)")
    for r in d.results:
        what = "matrix cells" if r.kind == "robustness" else "candidate verdicts"
        lines.append(f"{r.kind} results {r.path_a} → {r.path_b}: {len(r.changes)} {what} changed"
                     + (f", {len(r.only_a)} only in A" if r.only_a else "")
                     + (f", {len(r.only_b)} only in B" if r.only_b else ""))
        lines += [f"  {c.key}: {_verdict_change(c.before, c.after)}" for c in r.changes]
        lines += [f"  - {k}" for k in r.only_a] + [f"  + {k}" for k in r.only_b]
    return "\n".join(lines) + "\n"
