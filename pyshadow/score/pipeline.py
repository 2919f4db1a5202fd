"""From a candidate file to a result row: what both tiers share.

A candidate goes through the same front half in either tier:

1. **audit** (``pyshadow.score.audit``) — with the problem's context (the reference text before its first target)
   as ``trusted_prefix``, so benchmark-provided text copied verbatim is not held against the candidate. Any
   finding fails the candidate with the findings as reasons; nothing of a flagged candidate is compiled (its code
   could run at elaboration time: ``#eval``, ``initialize``).
2. **extraction** — per target, the *last* declaration whose name matches (``extract_target``, J.6); a target
   the candidate does not declare fails its checks with that reason.
3. **renaming** — ``rename_map`` pairs the reference's declarations with the candidate's (exact, namespaced,
   primed, signature), and ``rename_identifiers`` rewrites names token by token: the full tier states the
   checkers in the candidate's names, the kernel tier reads the candidate's statement in the reference's names
   (its atoms are compared by text).

Then the tier runs its checks (``pyshadow.score.full`` or the skeleton engine ``pyshadow.kernel.skeleton``) and
``finish_row`` turns verdicts into a ``ScoreRow``: every check with its verdict and Lean's message, the
``CandidateScore`` and the metrics of ``pyshadow.score.metrics``. Failing checks are recorded, never dropped.

A row is keyed for resuming by ``content_hash`` — a hash of everything that decides it (tier, toolchain,
problem id, system, the candidate's code, the reference text and targets, this module's ``SCHEMA``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..problems import Problem, reference_text
from ..references import ReferenceTarget, reference_targets
from ..syntax import Declaration, ParseError, parse_declaration
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.render import render_term
from .allowlist import judgeable
from .audit import AuditPolicy, Finding, audit
from ..syntax.scanner import (
    ExtractedDeclaration,
    declaration_headers,
    declarations,
    extract_target,
    name_components,
    normalize_name,
    rename_map,
)
from ..kernel.local_definitions import pair_by_value
from .candidates import Candidate, CandidateError
from .metrics import CandidateScore, candidate_metrics

SCHEMA = 1
UNDECIDED_NEEDS_FULL_TIER = "undecided: needs the full tier"


# ---------------------------------------------------------------------------------------------------------------
# Problems, ready for checking


TargetInfo = ReferenceTarget  # one reference target, prepared once (``pyshadow.references``)


@dataclass(frozen=True)
class ProblemInfo:
    """A problem with its reference read, its targets decomposed and its context cut out."""

    problem: Problem
    reference: str
    context: str  # the reference text before its first target: what a candidate may copy verbatim
    headers: Mapping[str, str]  # the reference's declarations, qualified name → header (for rename_map)
    targets: tuple[TargetInfo, ...]

    @property
    def id(self) -> str:
        return self.problem.id


def prepare_problem(problem: Problem) -> ProblemInfo:
    """Read the reference and prepare every target (``reference_targets``: a target that fails carries its
    ``error``)."""
    src = reference_text(problem)
    targets = reference_targets(problem, src)
    return ProblemInfo(problem, src, problem_context(src, problem.targets), declaration_headers(src), targets)


def problem_context(src: str, targets: Sequence[str]) -> str:
    """The reference text before the first target's declaration (its docstring and attributes excluded)."""
    wanted = {normalize_name(t) for t in targets}
    starts = [d.start for d in declarations(src) if normalize_name(d.qualified_name) in wanted]
    return src[: min(starts)] if starts else ""


# ---------------------------------------------------------------------------------------------------------------
# Renaming


def rename_identifiers(text: str, mapping: Mapping[str, str], *, qualify: bool) -> str:
    """``text`` with every identifier that names a key of ``mapping`` replaced by that key's value.

    An identifier names a key when it is the key, or the key's trailing components (``double`` for
    ``Doubling.double``, as written inside ``namespace Doubling``). ``qualify=True`` writes the fully qualified
    value (checkers elsewhere in the file must reach it); ``qualify=False`` keeps as many components as were
    written (the kernel tier compares atoms by their text). Comments and strings are left alone.
    """
    pairs = [(normalize_name(k), normalize_name(v)) for k, v in mapping.items()]
    pairs = [(k, v) for k, v in pairs if k != v]
    if not pairs:
        return text
    out: list[str] = []
    last = 0
    for tok in code_tokens(text):
        if tok.kind != IDENT:
            continue
        written = normalize_name(tok.text)
        new = next((dst for src, dst in pairs if written and (src == written or src.endswith("." + written))), None)
        if new is None:
            continue
        if not qualify:
            k = len(name_components(written))
            new = ".".join(name_components(new)[-k:])
        out += [text[last : tok.start], new]
        last = tok.end
    return "".join(out) + text[last:]


# ---------------------------------------------------------------------------------------------------------------
# Candidates, ready for checking


@dataclass(frozen=True)
class PreparedCandidate:
    """A candidate after the audit, extraction and rule-based renaming."""

    candidate: Candidate
    info: ProblemInfo
    findings: tuple[Finding, ...]
    extracted: Mapping[str, ExtractedDeclaration | None]  # target → the declaration checked
    renames: Mapping[str, str]  # reference name → candidate name (rule-based)
    content_hash: str
    adapters: tuple[dict[str, Any], ...] = ()  # LLM adapters asked for (``apply_llm_adapters``), used or not
    proofs: str = "required"  # the submission kind (``pyshadow.problems.PROOFS_MODES``)
    sorry: tuple[Finding, ...] = ()  # proofs = "ignored": the `sorry`s in theorems' proofs, allowed and reported

    @property
    def flagged(self) -> bool:
        return bool(self.findings)

    def audit_reason(self) -> str:
        shown = "; ".join(f"{f.kind} at line {f.line}: {f.excerpt}" for f in self.findings[:3])
        more = f" (+{len(self.findings) - 3} more)" if len(self.findings) > 3 else ""
        return f"audit: {shown}{more}"


def prepare_candidate(
    candidate: Candidate, info: ProblemInfo, tier: str, fingerprint: str, policy: AuditPolicy | None = None,
    proofs: str = "required",
) -> PreparedCandidate:
    """Audit, extract and rename one candidate. ``proofs="ignored"`` (a statement benchmark): a ``sorry`` in the
    proof of a theorem is not a finding but reported (``PreparedCandidate.sorry``, ``proof_sorries``); every other
    finding, a ``sorry`` in a definition's body included, still fails the candidate."""
    findings, sorry = proof_sorries(candidate.code, audit(candidate.code, policy or AuditPolicy(),
                                                          trusted_prefix=info.context, reference=info.reference),
                                    proofs)
    extracted = {t.name: extract_target(candidate.code, t.name) for t in info.targets}
    renames = rename_map(declaration_headers(candidate.code), info.headers)
    # a helper renamed with other parameter names has no signature match: paired by its value instead
    try:
        renames.update(pair_by_value(info.reference, candidate.code, renames))
    except Exception:  # noqa: BLE001 - a pairing is a convenience: without it the helper's goals fail, never pass
        pass
    for target, found in extracted.items():  # the checked declaration is the one extraction chose (J.6)
        if found is not None:
            renames[normalize_name(target)] = found.qualified_name
    digest = content_hash(tier, fingerprint, info, candidate.system, candidate.code, candidate.sample,
                          proofs if proofs != "required" else None)
    return PreparedCandidate(candidate, info, tuple(findings), extracted, renames, digest, proofs=proofs,
                             sorry=tuple(sorry))


PROOF_KEYWORDS = ("theorem", "lemma", "example")


def proof_sorries(code: str, findings: Sequence[Finding], proofs: str) -> tuple[list[Finding], list[Finding]]:
    """(the findings that fail the candidate, the ``sorry`` s allowed): with ``proofs="ignored"`` a ``sorry``
    finding inside the proof of a theorem, lemma or example (after its statement's top-level ``:=``) is allowed;
    with ``"required"`` nothing is. A ``sorry`` in a ``def``/``instance``/``abbrev`` changes what a statement
    means, so it stays a finding in both kinds."""
    if proofs != "ignored":
        return list(findings), []
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    proofs_at = [(d.statement_end, d.end) for d in declarations(code, include_anonymous=True)
                 if d.keyword in PROOF_KEYWORDS]
    kept, allowed = [], []
    for f in findings:
        offset = starts[min(f.line, len(starts)) - 1] + f.column
        inside = any(begin <= offset < end for begin, end in proofs_at)
        (allowed if f.kind == "sorry" and inside else kept).append(f)
    return kept, allowed


def content_hash(tier: str, fingerprint: str, info: ProblemInfo | None, system: str | None, code: str,
                 sample: str | None = None, proofs: str | None = None) -> str:
    """What decides a row; a rerun skips candidates whose hash is already in the results file. Two samples with
    the same code keep two rows (the sample id is hashed when there is one)."""
    payload = {
        "schema": SCHEMA,
        "tier": tier,
        "toolchain": fingerprint,
        "problem": info.id if info else None,
        "reference": info.reference if info else None,
        "targets": [t.name for t in info.targets] if info else None,
        "system": system,
        "code": code,
    }
    if sample is not None:
        payload["sample"] = sample
    if proofs is not None:  # a submission kind other than the default decides the row too
        payload["proofs"] = proofs
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# LLM adapters: the name-mismatch case rule-based renaming leaves

ADAPTER_NEEDS_FULL_TIER = "adapter needs the full tier"


def unresolved_targets(prepared: PreparedCandidate) -> list[str]:
    """Checkable targets for which neither extraction nor rule-based renaming found a candidate declaration."""
    return [t.name for t in prepared.info.targets
            if not t.error and t.declaration is not None and prepared.extracted.get(t.name) is None]


def adapter_source(prepared: PreparedCandidate) -> tuple[str, str] | None:
    """The candidate declaration an adapter should be built from: the last theorem/lemma no reference name was
    paired with (``(qualified name, header)``), or None when there is none."""
    claimed = {normalize_name(v) for v in prepared.renames.values()}
    for d in reversed(declarations(prepared.candidate.code)):
        if d.keyword in ("theorem", "lemma") and normalize_name(d.qualified_name) not in claimed:
            return d.qualified_name, d.header
    return None


def apply_llm_adapters(prepared: PreparedCandidate, client: Any, tier: str) -> PreparedCandidate:
    """Ask ``adapter_task`` for each unresolved target of ``prepared`` and append accepted adapters to its code.

    An adapter is a proof (reference name ← candidate declaration): it counts only when Lean checks it, which the
    full tier does (it is compiled with the candidate module, audited by the same ``#print axioms``). The kernel tier
    checks statements only, so there no model is asked and the row says ``adapter needs the full tier``. An answer
    the validators reject (``sorry``, a restatement of the reference that does not use the candidate's
    declaration …), or that fails the trust gate, changes nothing: the target stays missing, with the reason.
    ``--llm none`` (``client.mode == "none"``) returns ``prepared`` unchanged.
    """
    from ..llm import adapter_task, run_task  # imported on use: scoring without --llm needs no LLM layer

    missing = unresolved_targets(prepared)
    if not missing or prepared.flagged or client is None or client.mode == "none":
        return prepared
    info, cand = prepared.info, prepared.candidate
    code = cand.code
    extracted = dict(prepared.extracted)
    renames = dict(prepared.renames)
    records: list[dict[str, Any]] = []
    for target in missing:
        record: dict[str, Any] = {"target": target, "status": "not used", "provenance": None, "candidate_name": None,
                                  "code": None, "task": None, "key": None, "reasons": []}
        records.append(record)
        if tier != "full":
            record["reasons"] = [ADAPTER_NEEDS_FULL_TIER]
            continue
        source = adapter_source(prepared)
        if source is None:
            record["reasons"] = ["the candidate has no unpaired theorem to adapt"]
            continue
        cand_name, cand_header = source
        ref_name = normalize_name(target)
        decl = next(t.declaration for t in info.targets if t.name == target)
        ref_header = info.headers.get(ref_name) or info.headers.get(target) or ""
        others = "\n".join(h for n, h in declaration_headers(code).items() if n != cand_name)
        task = adapter_task(
            info.id, ref_name, ref_header, cand_name, cand_header,
            reference_kind=decl.keyword if decl is not None and decl.keyword in ("theorem", "lemma") else "theorem",
            candidate_excerpt=others,
            error=f"no declaration named {target} (or a namespaced / primed variant) in the candidate",
            context=info.context, candidate_id=cand.system,
        )
        result = run_task(client, task)
        record.update(status=result.status, provenance=result.provenance, candidate_name=cand_name,
                      code=result.code, task=result.task, key=result.key, reasons=list(result.reasons))
        if not result.accepted or not result.code:
            continue
        adapted = code.rstrip("\n") + "\n\n" + result.code.strip() + "\n"
        first_line = code.count("\n") + 1
        findings = [f for f in audit(adapted, AuditPolicy(), trusted_prefix=info.context) if f.line > first_line]
        found = extract_target(adapted, target)
        if findings:
            record["status"] = "rejected"
            record["reasons"] = [f"audit: {f.kind} at line {f.line}: {f.excerpt}" for f in findings[:3]]
        elif found is None or found.start < len(code.rstrip("\n")):
            record["status"] = "rejected"
            record["reasons"] = [f"the adapter does not declare {target}"]
        else:
            record["status"] = "used"
            code = adapted
            extracted[target] = found
            renames[ref_name] = found.qualified_name
    return replace(prepared, candidate=replace(cand, code=code), extracted=extracted, renames=renames,
                   adapters=tuple(records))


# ---------------------------------------------------------------------------------------------------------------
# Result rows


@dataclass
class Check:
    """One check on a candidate: ``kind`` is forward | backward | axioms (the candidate's own ``#print axioms``) |
    definition (full tier: a reference definition the targets use, equal to the candidate's by ``rfl``)."""

    name: str
    kind: str
    target: str
    passed: bool
    message: str  # "passed", or why not — Lean's message when Lean said why
    shadow: int | None = None  # 1-based shadow index of a forward check
    # Skeleton only: failed, but only because of atom pairs the kernel tier cannot judge (named in ``message``).
    undecided: bool = False
    text: str = ""  # the shadow's statement (forward) or the reference's (backward), for findings

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Check:
        return cls(obj["name"], obj["kind"], obj["target"], bool(obj["passed"]), obj.get("message", ""),
                   obj.get("shadow"), bool(obj.get("undecided", False)), obj.get("text", ""))


@dataclass
class ScoreRow:
    """One line of RESULTS.jsonl: a scored candidate, or an input entry that could not be scored."""

    problem_id: str | None
    system: str | None
    origin: str
    tier: str
    content_hash: str
    score: CandidateScore
    sample: str | None = None  # which of the system's samples for the problem (None: the only one)
    area: str | None = None
    level: str | None = None
    reason: str | None = None  # why the candidate fails as a whole (bad input, audit, compile error), if it does
    audit: list[dict[str, Any]] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    declarations: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    renames: dict[str, str] = field(default_factory=dict)
    counted: bool = True  # enters the summary tables (False for an unknown problem or a line without system)
    elapsed_s: float = 0.0
    adapters: list[dict[str, Any]] = field(default_factory=list)  # LLM adapters (only with --llm other than none)
    lint: list[dict[str, Any]] | None = None  # `score --lint`: the candidate's lint findings
    # Skeleton only, undecided targets: {"target", "pairs": [[reference atom, candidate atom], …], "roles": checks
    # that pass once those atoms are one, "reference_scope" / "candidate_scope": where each side is written}.
    undecided_atoms: list[dict[str, Any]] = field(default_factory=list)
    # The skeleton + LLM column (``pyshadow.score.skeleton_llm``; only with --llm): a model's opinion, never SA-Pass.
    skeleton_llm: dict[str, Any] | None = None
    problem_not_loaded: bool = False  # not a candidate: a problem of the set that did not load (``reason`` says why)
    proofs: str | None = None  # the submission kind the row was scored under (None: a row of an older version)
    sorry: list[dict[str, Any]] = field(default_factory=list)  # proofs = "ignored": the `sorry`s allowed

    @property
    def proof(self) -> str:
        """What became of the candidate's proof: ``not checked`` (kernel tier: the statement alone is judged),
        ``checked`` (full tier, proofs required), ``ignored`` (full tier, statement benchmark)."""
        if self.tier == "kernel":
            return "not checked"
        return "ignored" if self.proofs == "ignored" else "checked"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "problem_id": self.problem_id,
            "system": self.system,
            "sample": self.sample,
            "origin": self.origin,
            "tier": self.tier,
            "area": self.area,
            "level": self.level,
            "reason": self.reason,
            "audit": self.audit,
            **candidate_metrics(self.score),
            "forward": list(self.score.forward),
            "backward": self.score.backward,
            "checks": [asdict(c) for c in self.checks],
            "declarations": self.declarations,
            "renames": self.renames,
            "counted": self.counted,
            "elapsed_s": round(self.elapsed_s, 3),
            "content_hash": self.content_hash,
        }
        if self.adapters:
            data["adapters"] = self.adapters
        if self.lint is not None:
            data["lint"] = self.lint
        if self.undecided_atoms:
            data["undecided_atoms"] = self.undecided_atoms
        if self.skeleton_llm is not None:
            data["skeleton_llm"] = self.skeleton_llm
        if self.problem_not_loaded:
            data["problem_not_loaded"] = True
        else:
            data["proofs"] = self.proofs
            data["proof"] = self.proof
            if self.proofs == "ignored":
                data["sorry"] = self.sorry
        return data

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> ScoreRow:
        compiled = obj["compiled"] if "compiled" in obj else obj["statement_elaborated"]
        score = CandidateScore(bool(compiled), tuple(obj.get("forward", ())), bool(obj.get("backward")),
                               bool(obj.get("skeleton")), bool(obj.get("undecided", False)),
                               audit_failed=bool(obj.get("audit")),
                               name_not_found=obj.get("bucket") == "name_not_found")
        return cls(
            problem_id=obj.get("problem_id"), system=obj.get("system"), origin=obj.get("origin", ""),
            tier=obj["tier"], content_hash=obj["content_hash"], score=score, sample=obj.get("sample"),
            area=obj.get("area"),
            level=obj.get("level"), reason=obj.get("reason"), audit=list(obj.get("audit", [])),
            checks=[Check.from_dict(c) for c in obj.get("checks", [])],
            declarations=dict(obj.get("declarations", {})), renames=dict(obj.get("renames", {})),
            counted=bool(obj.get("counted", True)), elapsed_s=float(obj.get("elapsed_s", 0.0)),
            adapters=[dict(a) for a in obj.get("adapters", [])],
            lint=[dict(f) for f in obj["lint"]] if obj.get("lint") is not None else None,
            undecided_atoms=[dict(u) for u in obj.get("undecided_atoms", [])],
            skeleton_llm=dict(obj["skeleton_llm"]) if obj.get("skeleton_llm") is not None else None,
            problem_not_loaded=bool(obj.get("problem_not_loaded", False)),
            proofs=obj.get("proofs"), sorry=[dict(f) for f in obj.get("sorry", [])],
        )


def error_row(error: CandidateError, tier: str, fingerprint: str, problems: Mapping[str, ProblemInfo]) -> ScoreRow:
    """A bad input entry as a failed candidate: counted when its problem and system are known."""
    info = problems.get(error.problem_id or "")
    digest = content_hash(tier, fingerprint, info, error.system, f"error|{error.origin}|{error.reason}", error.sample)
    return ScoreRow(
        problem_id=error.problem_id, system=error.system, origin=error.origin, tier=tier, content_hash=digest,
        sample=error.sample,
        score=CandidateScore(False, (False,) * sum(t.n_forward for t in info.targets) if info else (), False,
                             skeleton=tier == "kernel"),
        area=info.problem.area if info else None, level=info.problem.level if info else None,
        reason=error.reason, counted=info is not None and error.system is not None,
    )


def problem_row(problem_id: str, reason: str, tier: str, fingerprint: str) -> ScoreRow:
    """A problem of the set that did not load, as a row of the results (not a candidate: never counted, but every
    summary lists it and counts it as a failure for every system)."""
    digest = content_hash(tier, fingerprint, None, None, f"problem|{problem_id}|{reason}")
    return ScoreRow(problem_id=problem_id, system=None, origin="", tier=tier, content_hash=digest,
                    score=CandidateScore(False, (), False, skeleton=tier == "kernel"),
                    reason=f"the problem does not load: {reason}", counted=False, problem_not_loaded=True)


def finish_row(
    prepared: PreparedCandidate,
    tier: str,
    checks: Sequence[Check],
    *,
    compiled: bool,
    reason: str | None = None,
    elapsed_s: float = 0.0,
) -> ScoreRow:
    """The row of a candidate whose checks ran (or could not run: ``compiled=False`` with the ``reason``).

    Forward verdicts are taken per target in the reference's shadow order; a target with no forward verdict (its
    declaration missing, or not checked) counts its shadows as failed, so every candidate of a problem has the
    same number of forward checks. Backward passes only when every target's backward check passed.
    """
    info, cand = prepared.info, prepared.candidate
    forward: list[bool] = []
    backward = True
    for t in info.targets:
        by_shadow = {c.shadow: c.passed for c in checks if c.target == t.name and c.kind == "forward"}
        forward += [by_shadow.get(i, False) for i in range(1, t.n_forward + 1)]
        backward &= any(c.passed for c in checks if c.target == t.name and c.kind == "backward")
        # the full tier's definition checks (``full.add_definition_checks``): what the statement uses is part of it
        backward &= all(c.passed for c in checks if c.target == t.name and c.kind == "definition")
    if prepared.flagged:
        compiled, reason = False, prepared.audit_reason()
    failed = [c for c in checks if not c.passed and c.kind in ("forward", "backward", "definition")]
    undecided = compiled and bool(failed) and all(c.undecided for c in failed)
    missing = any(prepared.extracted.get(t.name) is None for t in info.targets if not t.error and t.declaration)
    score = CandidateScore(compiled, tuple(forward), backward and bool(info.targets), skeleton=tier == "kernel",
                           undecided=undecided, audit_failed=prepared.flagged, name_not_found=missing)
    return ScoreRow(
        problem_id=cand.problem_id, system=cand.system, origin=cand.origin, tier=tier,
        content_hash=prepared.content_hash, score=score, sample=cand.sample, area=info.problem.area, level=info.problem.level,
        reason=reason, audit=[f.to_dict() for f in prepared.findings], checks=list(checks),
        declarations={t: _declaration_summary(d) for t, d in prepared.extracted.items()},
        renames={k: v for k, v in prepared.renames.items() if k != v}, elapsed_s=elapsed_s,
        adapters=[dict(a) for a in prepared.adapters], proofs=prepared.proofs,
        sorry=[f.to_dict() for f in prepared.sorry],
    )


def _declaration_summary(found: ExtractedDeclaration | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {"name": found.qualified_name, "match": found.match, "line": found.line, "has_sorry": found.has_sorry}


def missing_target_checks(prepared: PreparedCandidate, target: TargetInfo) -> list[Check]:
    """Failed checks for a target the candidate does not declare (or whose reference cannot be checked)."""
    if target.error:
        why = f"the reference target cannot be checked: {target.error}"
    else:
        why = f"no declaration named {target.name} (or a namespaced / primed variant) in the candidate"
        for record in prepared.adapters:
            if record["target"] == target.name and record["status"] != "used":
                why += f"; LLM adapter {record['status']}: {'; '.join(record['reasons']) or 'no reason given'}"
    checks = [Check(f"{target.name}:forward:{i}", "forward", target.name, False, why, i)
              for i in range(1, target.n_forward + 1)]
    checks.append(Check(f"{target.name}:backward", "backward", target.name, False, why))
    return checks


# ---------------------------------------------------------------------------------------------------------------
# The kernel tier: skeleton SA-Pass


def kernel_rows(
    prepared: Sequence[PreparedCandidate], lean: Any, *, n_jobs: int = -1, cache_dir: Any = None, chunk: int = 64,
    strict: bool = False,
) -> Iterator[ScoreRow]:
    """Skeleton SA-Pass (``pyshadow.kernel.skeleton``) of each candidate's statements, ``chunk`` candidates per
    engine call so rows arrive while the run goes on. The candidate's proof is not checked in this tier; its
    statement is read in the reference's names (``rename_identifiers``). A statement that does not parse, or that
    the engine cannot abstract, fails the candidate with ``compiled=False`` and the reason. Each row's
    ``elapsed_s`` is its chunk's wall time divided by the chunk's candidates (the engine checks a chunk at once).

    Flagged candidates are checked too (only their statements reach Lean, abstracted): their checks are recorded
    for information, and the audit fails them.
    """
    from ..kernel import scoring  # imported on use so the full tier does not need it

    for begin in range(0, len(prepared), chunk):
        started = time.monotonic()
        part = prepared[begin : begin + chunk]
        pairs, pending = [], []
        for p in part:
            checks: list[Check] = []
            problems: list[str] = []
            keys: dict[str, str] = {}
            starts = [f.start for f in p.extracted.values() if f is not None]
            if not p.flagged and (off := judgeable(p.candidate.code, starts, trusted_prefix=p.info.context)):
                # The kernel tier reads statements as text: it judges only what the allowlist covers (#23).
                why = f"{UNDECIDED_NEEDS_FULL_TIER}: {off}"
                for t in p.info.targets:
                    checks += [replace(c, message=why) for c in missing_target_checks(p, t)]
                pending.append((p, checks, [why], {}))
                continue
            for t in p.info.targets:
                found = p.extracted.get(t.name)
                if found is None or t.error or t.declaration is None:
                    checks += missing_target_checks(p, t)
                    continue
                try:
                    decl = candidate_statement(p, found)
                except ParseError as err:
                    problems.append(f"the statement of {found.qualified_name} does not parse: {err}")
                    checks += missing_target_checks(p, t)
                    continue
                keys[t.name] = f"{p.content_hash}|{t.name}"
                pairs.append(with_values(skeleton_pair(keys[t.name], p, t, found, decl), p, t, found))
            pending.append((p, checks, problems, keys))
        verdicts = (scoring.skeleton_score(pairs, lean, n_jobs=n_jobs, cache_dir=cache_dir, strict=strict)
                    if pairs else {})
        _lean_equal_verdicts(pairs, verdicts, lean)
        by_key = {pair.key: pair for pair in pairs}
        share = (time.monotonic() - started) / max(1, len(part))  # the batch's wall time, shared by its candidates
        for p, checks, problems, keys in pending:
            undecided: list[dict[str, Any]] = []
            for t in p.info.targets:
                if t.name in keys:
                    verdict = verdicts.get(keys[t.name])
                    checks += skeleton_checks(t, verdict)
                    if verdict is None or verdict.error:
                        problems.append(f"{t.name}: {verdict.error if verdict else 'no verdict from the engine'}")
                    elif verdict.undecided:
                        undecided.append(undecided_record(t.name, verdict, by_key[keys[t.name]]))
            reason = "; ".join(problems) or None
            row = finish_row(p, "kernel", checks, compiled=not problems, reason=reason, elapsed_s=share)
            row.undecided_atoms = undecided
            yield row


def _lean_equal_verdicts(pairs: Sequence[Any], verdicts: dict[str, Any], lean: Any) -> None:
    """A target the skeleton search does not pass passes when Lean's own elaborator proves the reference's and the
    candidate's statement one proposition (``pyshadow.kernel.pairs.lean_equal_keys``): the rule pairs are judged
    by, so ``score`` and ``check_pair`` agree. Every check of the target then holds."""
    from ..kernel.pairs import lean_equal_keys
    from ..kernel.skeleton import SkeletonVerdict
    from ..syntax.render import render_declaration

    todo = []
    for pair in pairs:
        v = verdicts.get(pair.key)
        # Mathlib problems only: the environment declares Mathlib's names, which a core-only problem's files lack
        if pair.mathlib and v is not None and not v.passed and v.forward:
            todo.append((pair.key, render_declaration(pair.reference, with_prefix=False), pair.reference_context,
                         render_declaration(pair.candidate, with_prefix=False), pair.candidate_context))
    for key in lean_equal_keys(todo, lean):
        verdicts[key] = SkeletonVerdict(key, [True] * len(verdicts[key].forward), True)


def undecided_record(target: str, verdict: Any, pair: Any) -> dict[str, Any]:
    """What a row keeps of an undecided target: its atom pairs, the checks that pass once they are one, and where
    each side is written (the scope a model is shown in the skeleton + LLM column)."""
    from ..llm.same_term import term_scope

    return {"target": target, "pairs": [list(ab) for ab in verdict.undecided],
            "roles": list(verdict.undecided_roles),
            "reference_scope": asdict(term_scope(pair.reference_context, pair.reference)),
            "candidate_scope": asdict(term_scope(pair.candidate_context, pair.candidate))}


def candidate_statement(prepared: PreparedCandidate, found: ExtractedDeclaration) -> Declaration:
    """The candidate's statement read in the reference's names (its atoms are compared with the reference's by
    text); raises ``ParseError``. What the skeleton search of either tier reads."""
    inverse = {v: k for k, v in prepared.renames.items()}
    return parse_declaration(rename_identifiers(found.header, inverse, qualify=False))


def skeleton_pair(key: str, prepared: PreparedCandidate, target: TargetInfo, found: ExtractedDeclaration,
                  statement: Declaration, *, definitions: bool = True) -> Any:
    """The skeleton search's input for one candidate target (both tiers search the same pair): the reference's
    and the candidate's ``statement`` (``candidate_statement``), each with the text it is written under, so names
    resolve under its own file's opens (``pyshadow.kernel.atoms``) and its definitions unfold
    (``pyshadow.kernel.local_definitions``; ``definitions=False`` leaves them folded)."""
    from ..kernel.skeleton import SkeletonPair

    assert target.declaration is not None
    code = prepared.candidate.code
    inverse = {v: k for k, v in prepared.renames.items()}
    # The candidate's definitions in the reference's names, as its statement is (``candidate_statement``): a helper
    # is then unfolded by the name the statement uses (``kernel.local_definitions``), whatever the candidate called it.
    before = rename_identifiers(code[: max(0, code.find(found.header))], inverse, qualify=False)
    info = prepared.info
    context = info.reference[: target.source.start] if target.source is not None else info.context
    if not definitions:  # the full tier's alternatives: goals name the definitions, as its checkers state them
        from ..kernel.local_definitions import without_definitions

        context, before = without_definitions(context), without_definitions(before)
    return SkeletonPair(key, target.declaration, statement, info.problem.needs_mathlib, context, before)


def with_values(pair: Any, prepared: PreparedCandidate, target: TargetInfo, found: ExtractedDeclaration) -> Any:
    """The kernel tier's pair for a data target whose reference gives a value (``abbrev sol : ℕ := 42``): both
    sides read with their values (``kernel.answers.with_value``), so a changed value fails; a target
    whose value is left open (``instance … : CommRing R := sorry``) keeps ``Nonempty T`` on both sides — any
    value the candidate gives meets an existence claim."""
    from ..kernel.answers import declared_value, is_data_declaration, is_open_value, with_value

    src = target.source
    if src is None:
        return pair
    try:
        header = parse_declaration(src.header)
    except ParseError:
        return pair
    value = declared_value(prepared.info.reference[src.statement_end : src.end])
    if not is_data_declaration(header) or value is None or is_open_value(value):
        return pair
    reference = replace(pair.reference, keyword="theorem", type=with_value(header, value).type)
    code = prepared.candidate.code
    at = code.find(found.header, found.start)
    body = code[at + len(found.header) : found.end] if at >= 0 else ""
    inverse = {v: k for k, v in prepared.renames.items()}
    cand_value = declared_value(rename_identifiers(body, inverse, qualify=False))
    candidate = pair.candidate
    if is_data_declaration(candidate):
        # a value left open or not a term (`where`, `|`): read as its text, which no given value matches
        candidate = with_value(candidate, cand_value if cand_value is not None else " ".join(body.split()) or "sorry?")
    return replace(pair, reference=reference, candidate=candidate)


def skeleton_checks(target: TargetInfo, verdict: Any) -> list[Check]:
    """One ``Check`` per forward shadow and one backward, from a ``SkeletonVerdict`` (None: no verdict)."""
    forward = list(verdict.forward) if verdict is not None else []
    messages: Mapping[str, str] = verdict.messages if verdict is not None else {}
    fallback = (verdict.error if verdict is not None else None) or "failed"

    def message(passed: bool, *roles: str) -> str:
        return "passed" if passed else next((messages[r] for r in roles if messages.get(r)), fallback)

    undecided_roles = set(getattr(verdict, "undecided_roles", ()) or ())

    def judged(ok: bool, role: str, fallback_message: str) -> tuple[bool, str]:
        if not ok and role in undecided_roles and verdict.is_undecided:
            return True, verdict.undecided_reason()
        return False, fallback_message

    shadows = target.decomposition.shadows if target.decomposition is not None else ()
    checks = []
    for i in range(1, target.n_forward + 1):
        ok = i <= len(forward) and bool(forward[i - 1]) and not (verdict and verdict.error)
        undecided, msg = judged(ok, f"forward:{i}", message(ok, f"forward:{i}"))
        text = render_term(shadows[i - 1].statement) if i <= len(shadows) else ""
        checks.append(Check(f"{target.name}:forward:{i}", "forward", target.name, ok, msg, i, undecided, text))
    ok = bool(verdict is not None and verdict.backward and not verdict.error)
    undecided, msg = judged(ok, "backward", message(ok, "backward"))
    text = render_term(target.declaration.type) if target.declaration is not None and target.declaration.type else ""
    checks.append(Check(f"{target.name}:backward", "backward", target.name, ok, msg, None, undecided, text))
    return checks


FINDING_OF = {True: "faithful", False: "unfaithful"}


def findings_of(row: ScoreRow) -> dict[str, Any]:
    """FaithAlign-style findings of a scored row: one per shadow check and per backward check — ``faithful``
    (passed), ``undecidable`` (the kernel tier cannot judge) or ``unfaithful`` (failed) — with the shadow's text;
    the candidate is unfaithful if any finding is, else undecidable if any is, else faithful. With --llm the
    skeleton + LLM column rides along as ``skeleton_llm``; it never changes a finding or the verdict."""
    findings = []
    for c in row.checks:
        if c.kind not in ("forward", "backward"):
            continue
        finding = "undecidable" if c.undecided else FINDING_OF[c.passed]
        findings.append({"check": c.name, "kind": c.kind, "finding": finding, "shadow": c.text,
                         "message": c.message})
    kinds = {f["finding"] for f in findings}
    if not row.score.compiled:
        verdict = "unfaithful"
    elif "unfaithful" in kinds:
        verdict = "unfaithful"
    elif "undecidable" in kinds:
        verdict = "undecidable"
    else:
        verdict = "faithful"
    out = {"problem_id": row.problem_id, "system": row.system, "origin": row.origin, "tier": row.tier,
           "verdict": verdict, "reason": row.reason, "findings": findings, "content_hash": row.content_hash}
    if row.skeleton_llm is not None:  # the model's opinion, beside the verdict (which stays the skeleton's)
        out["skeleton_llm"] = row.skeleton_llm
    return out
