"""The Lean source scanner: scopes, declarations and their fully qualified names, target extraction, name matching.

Extraction (``extract_target``) follows docs/DESIGN.md: the candidate declaration checked is the **last** declaration
whose name matches the target. A name matches when, after resolving ``namespace … end`` blocks and ``_root_.``,
the fully qualified name is the target (``exact``), ends in ``.target`` (``namespaced``), or is either of those up
to trailing primes (``primed``: the paper's J.6 backup ``exercise_2_1_18'`` placed after the real attempt). The
last match is the one checked even when it is a ``sorry`` backup, so a backup can neither rescue nor silently
sink the main declaration: ``has_sorry`` says it fails.

Rule-based name fixing (``match_names`` / ``rename_map``) pairs the names the checkers use with the candidate's
declarations, in this order, each name used at most once:

1. ``exact`` — same fully qualified name;
2. ``namespaced`` — one name is the other with namespaces in front (``Ns.foo`` ↔ ``foo``; ``_root_.`` dropped);
3. ``primed`` — the same after dropping trailing primes of the last component (``foo'`` ↔ ``foo``);
4. ``signature`` — a renamed auxiliary declaration: the text of the header *after the name* (binders, colon,
   type) is identical token by token (comments and spacing ignored) and no other unmatched name on either side
   has that signature. Names already paired count as equal inside signatures, and the step repeats until nothing
   new pairs up, so ``theorem main … : f n = 0`` finds ``theorem main' … : my_f n = 0`` once ``f`` ↔ ``my_f``.

When several candidate declarations qualify in steps 2–3 the last declared wins, as in extraction.

Declarations are found by ``pyshadow.syntax.declarations.find_declarations``, and inherit its limits (see the xfail tests
in ``tests/test_candidates.py``): a declaration on the same line as a preceding ``open … in`` / ``set_option … in``
or docstring is not seen, and a ``#print``/``#eval`` line does not end the declaration before it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .lexer import (
    COMMAND_KEYWORDS,
    DECLARATION_KEYWORDS,
    IDENT,
    Token,
    code_tokens,
    line_col,
)
from .declarations import find_declarations

# Words that leave a goal unproved when they occur as code: the `sorry` term / tactic, the `admit` tactic, and
# the `stop` tactic (core Lean: `macro "stop" s:tacticSeq : tactic => `(repeat sorry)`).
ADMIT_WORDS = frozenset({"sorry", "admit", "stop"})
# Searches that close the goal with `sorry` when they find no full proof (core `apply?`; the old `library_search`).
ADMITTING_SEARCH = frozenset({"apply?", "library_search"})

# Keywords that can follow `section` / `end` on the next line and are therefore not a scope name.
_NOT_A_SCOPE_NAME = COMMAND_KEYWORDS | DECLARATION_KEYWORDS | {"lemma", "public", "meta", "mutual", "in"}


# ---------------------------------------------------------------------------------------------------------------
# Names


def name_components(name: str) -> list[str]:
    """The components of a dotted Lean name, «guillemets» removed: ``«a b».c`` → ``["a b", "c"]``."""
    parts = re.findall(r"«[^»]*»|[^.«]+", name)
    return [p[1:-1] if p.startswith("«") else p for p in parts]


def normalize_name(name: str) -> str:
    """A name as Lean resolves it: guillemets dropped, a leading ``_root_`` component dropped."""
    parts = name_components(name)
    if parts and parts[0] == "_root_":
        parts = parts[1:]
    return ".".join(parts)


# A name component Lean reads without «guillemets» (src/Init/Meta.lean `isIdFirst`/`isIdRest`, restricted to ASCII
# letters, Greek letters other than λ Π Σ, and subscripts); anything else — spaces, other symbols, a keyword — is
# written «…» (lean4 src/Lean/Parser/Basic.lean `identFn`: `«` opens an escaped atomic name). Escaping a component
# that needs none is harmless (`«foo»` is `foo`), so the test errs on escaping.
_PLAIN_COMPONENT = re.compile(r"[A-Za-z_\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a4-\u03a9]"
                              r"[A-Za-z0-9_'!?\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a4-\u03a9\u2080-\u209c]*")
_NAME_KEYWORDS = frozenset({
    "at", "by", "do", "else", "end", "fun", "from", "have", "if", "in", "let", "match", "then", "with", "show",
    "suffices", "calc", "open", "universe", "variable", "namespace", "section", "where", "deriving", "instance",
    "theorem", "lemma", "def", "abbrev", "axiom", "structure", "class", "inductive", "example", "import", "Type",
    "Sort", "Prop", "forall", "exists", "λ", "this", "local", "scoped", "private", "protected", "noncomputable",
    "partial", "unsafe", "macro", "syntax", "notation", "infix", "infixl", "infixr", "prefix", "postfix", "mutual",
    "termination_by", "decreasing_by", "extends", "opaque", "attribute", "set_option", "omit", "include"})


def lean_component(component: str) -> str:
    """One name component as Lean source: ``foo`` as it is, ``Order Facts`` as ``«Order Facts»``."""
    if _PLAIN_COMPONENT.fullmatch(component) and component not in _NAME_KEYWORDS:
        return component
    return f"«{component}»"


def lean_name(name: str) -> str:
    """A (normalized or written) dotted name as Lean source: each component guillemetted where it must be —
    ``Order Facts.main_thm`` or ``«Order Facts».main_thm`` → ``«Order Facts».main_thm``; a leading ``_root_``
    dropped as ``normalize_name`` drops it. The inverse of ``normalize_name`` for components without dots (a written
    ``«a.b».c`` keeps its two components)."""
    parts = name_components(name)
    return ".".join(lean_component(c) for c in (parts[1:] if parts[:1] == ["_root_"] else parts))


def _strip_primes(name: str) -> str:
    return name.rstrip("'")


def _suffix_of(short: str, long: str) -> bool:
    """``short`` is ``long`` with some namespaces removed from the front (``foo`` of ``A.B.foo``)."""
    return long.endswith("." + short)


# ---------------------------------------------------------------------------------------------------------------
# Scopes: namespace / section / mutual … end


@dataclass(frozen=True, slots=True)
class ScopeFrame:
    """One open scope: ``namespace A.B`` opens two frames (``A``, ``B``); ``section`` and ``mutual`` one."""

    kind: Literal["namespace", "section", "mutual"]
    name: str | None
    offset: int  # where the opening keyword is


@dataclass(frozen=True, slots=True)
class ScopeProblem:
    """An ``end`` that closes nothing or the wrong scope, or a scope never closed."""

    offset: int
    message: str
    unclosed: ScopeFrame | None = None  # the scope, when the problem is that it is never closed


@dataclass(frozen=True, slots=True)
class ScopeWalk:
    """The namespace in force at every offset, and what is unbalanced."""

    change_offsets: tuple[int, ...]  # sorted; the namespace changes right after each of these offsets
    namespaces: tuple[tuple[str, ...], ...]  # namespaces[i] is in force from change_offsets[i] on
    problems: tuple[ScopeProblem, ...]

    def namespace_at(self, offset: int) -> tuple[str, ...]:
        """The open namespaces (outermost first) at ``offset``."""
        i = bisect.bisect_right(self.change_offsets, offset) - 1
        return self.namespaces[i] if i >= 0 else ()


def _scope_name(code: list[Token], i: int, src: str) -> str | None:
    """The optional name after ``section``/``end`` at ``code[i]``: an identifier on the same line, or indented."""
    if i + 1 >= len(code):
        return None
    nxt = code[i + 1]
    if nxt.kind != IDENT or nxt.text in _NOT_A_SCOPE_NAME:
        return None
    same_line = "\n" not in src[code[i].end : nxt.start]
    return nxt.text if same_line or column_of(src, nxt.start) > 0 else None


def walk_scopes(src: str) -> ScopeWalk:
    """Track ``namespace``/``section``/``mutual``/``end`` through ``src`` (code only; comments and strings skipped).

    Mirrors Lean's ``end``: ``namespace A.B`` and ``section A.B`` open one scope per component; ``end N`` closes
    as many scopes as ``N`` has components (even when the names do not match, which Lean then reports); a plain
    ``end`` closes an anonymous section or a ``mutual`` block.
    """
    code = code_tokens(src)
    stack: list[ScopeFrame] = []
    problems: list[ScopeProblem] = []
    offsets: list[int] = [0]
    spaces: list[tuple[str, ...]] = [()]

    def record(offset: int) -> None:
        current = tuple(f.name for f in stack if f.kind == "namespace" and f.name is not None)
        if current != spaces[-1]:
            offsets.append(offset)
            spaces.append(current)

    for i, tok in enumerate(code):
        if tok.kind != IDENT:
            continue
        if tok.text == "namespace" and i + 1 < len(code) and code[i + 1].kind == IDENT:
            stack.extend(ScopeFrame("namespace", part, tok.start) for part in name_components(code[i + 1].text))
            record(code[i + 1].end)
        elif tok.text == "section":
            name = _scope_name(code, i, src)
            parts = name_components(name) if name else [None]
            stack.extend(ScopeFrame("section", part, tok.start) for part in parts)
        elif tok.text == "mutual":
            stack.append(ScopeFrame("mutual", None, tok.start))
        elif tok.text == "end":
            problem = _close_scope(stack, _scope_name(code, i, src), tok.start)
            if problem is not None:
                problems.append(problem)
            record(tok.end)
    problems.extend(ScopeProblem(f.offset, f"{_describe(f)} is never closed", f) for f in stack)
    return ScopeWalk(tuple(offsets), tuple(spaces), tuple(sorted(problems, key=lambda p: p.offset)))


def _describe(frame: ScopeFrame) -> str:
    if frame.kind == "mutual":
        return "mutual block"
    return f"{frame.kind} {frame.name}" if frame.name else f"anonymous {frame.kind}"


def _close_scope(stack: list[ScopeFrame], name: str | None, offset: int) -> ScopeProblem | None:
    """Pop what ``end name`` closes; a problem when it does not match what is open (Lean rejects those)."""
    written = f"`end {name}`" if name else "`end`"
    if name is None and stack and stack[-1].kind == "mutual":
        stack.pop()
        return None
    parts: list[str | None] = list(name_components(name)) if name else [None]
    if len(parts) > len(stack):
        stack.clear()
        return ScopeProblem(offset, f"{written} closes more scopes than are open")
    closed = stack[-len(parts) :]
    del stack[-len(parts) :]
    if [f.name for f in closed] != parts or any(f.kind == "mutual" for f in closed):
        return ScopeProblem(offset, f"{written} does not match the open {_describe(closed[-1])}")
    return None


# ---------------------------------------------------------------------------------------------------------------
# Declarations with fully qualified names


@dataclass(frozen=True, slots=True)
class NamedDeclaration:
    """A named declaration of a source text, with its name resolved against the enclosing namespaces."""

    name: str  # as written after the keyword
    qualified_name: str  # namespaces applied, `_root_` and guillemets resolved
    keyword: str
    header: str  # `theorem name binders : type`
    signature: str  # header after the name, token texts joined by single spaces
    start: int
    end: int
    keyword_start: int
    statement_end: int


def _signature(header: str, name: str) -> str:
    """The header after ``keyword name``, token by token (comments and spacing ignored).

    The name token is the first whose last component is ``name``'s (so ``S.myF`` finds ``myF`` in ``def myF …``).
    """
    toks = [t.text for t in code_tokens(header)]
    last = name_components(normalize_name(name))[-1:]
    for k, text in enumerate(toks):
        if name_components(normalize_name(text))[-1:] == last:
            return " ".join(toks[k + 1 :])
    return " ".join(toks)


def qualify(name: str, namespaces: Sequence[str]) -> str:
    """The full name Lean gives a declaration named ``name`` inside ``namespaces``."""
    parts = name_components(name)
    if parts and parts[0] == "_root_":
        return ".".join(parts[1:])
    return ".".join([*namespaces, *parts])


def declarations(src: str, *, include_anonymous: bool = False) -> list[NamedDeclaration]:
    """Every named declaration in ``src`` in source order.

    ``example`` s and anonymous instances are left out unless ``include_anonymous`` (their ``name`` and
    ``qualified_name`` are then ``""``).
    """
    scopes = walk_scopes(src)
    out: list[NamedDeclaration] = []
    for d in find_declarations(src):
        named = d.name is not None and d.keyword != "example"
        if not named and not include_anonymous:
            continue
        name = d.name if named and d.name is not None else ""
        header = d.header(src)
        out.append(
            NamedDeclaration(
                name=name,
                qualified_name=qualify(name, scopes.namespace_at(d.keyword_start)) if name else "",
                keyword=d.keyword,
                header=header,
                signature=_signature(header, name) if name else "",
                start=d.start,
                end=d.end,
                keyword_start=d.keyword_start,
                statement_end=d.statement_end,
            )
        )
    return out


def column_of(src: str, offset: int) -> int:
    """0-based column of ``offset`` (cheap: scans back to the previous newline only)."""
    return offset - (src.rfind("\n", 0, offset) + 1)


# ---------------------------------------------------------------------------------------------------------------
# Extraction of the checked declaration

MatchRule = Literal["exact", "namespaced", "primed", "signature"]


@dataclass(frozen=True, slots=True)
class ExtractedDeclaration:
    """The declaration of a candidate that the checkers see as the target."""

    name: str  # as written
    qualified_name: str  # what checkers must call it
    keyword: str
    header: str  # `theorem name binders : type`, up to the top-level `:=`
    has_sorry: bool  # `sorry`/`admit`/`stop`/`apply?` as code anywhere in the declaration: it fails
    match: MatchRule  # how its name matched the target
    start: int  # span in the candidate source (docstring and attributes included)
    end: int
    line: int  # 1-based line of its keyword


def name_match(qualified_name: str, target: str) -> MatchRule | None:
    """How a declaration's qualified name matches a target name, if it does (see the module docstring)."""
    q, t = normalize_name(qualified_name), normalize_name(target)
    for rule in ("exact", "namespaced", "primed"):
        if _names_match(rule, t, q):
            return rule  # type: ignore[return-value]
    return None


def contains_admit(text: str) -> bool:
    """Whether ``text`` uses ``sorry``/``admit``/``stop``/``apply?`` as code (not in comments, strings, «names»)."""
    return any(t.kind == IDENT and (t.text in ADMIT_WORDS or t.text in ADMITTING_SEARCH) for t in code_tokens(text))


def extract_target(src: str, target_name: str, *, match_primed: bool = True) -> ExtractedDeclaration | None:
    """The **last** declaration of ``src`` whose name matches ``target_name``, or None when none does.

    ``match_primed=False`` ignores primed variants (only exact and namespaced names count).
    """
    chosen: tuple[NamedDeclaration, MatchRule] | None = None
    for decl in declarations(src):
        rule = name_match(decl.qualified_name, target_name)
        if rule is None or (rule == "primed" and not match_primed):
            continue
        chosen = (decl, rule)
    if chosen is None:
        return None
    decl, rule = chosen
    return ExtractedDeclaration(
        name=decl.name,
        qualified_name=decl.qualified_name,
        keyword=decl.keyword,
        header=decl.header,
        has_sorry=contains_admit(src[decl.keyword_start : decl.end]),
        match=rule,
        start=decl.start,
        end=decl.end,
        line=line_col(src, decl.keyword_start)[0],
    )


# ---------------------------------------------------------------------------------------------------------------
# Rule-based name fixing


@dataclass(frozen=True, slots=True)
class NameMatch:
    """A name the checkers use (``target``) paired with the candidate declaration that stands for it."""

    target: str
    candidate: str
    rule: MatchRule


def _names_match(rule: str, target: str, candidate: str) -> bool:
    """Whether two normalized names match under one of the name rules ``exact``/``namespaced``/``primed``."""
    if rule == "exact":
        return target == candidate
    if rule == "primed":
        target, candidate = _strip_primes(target), _strip_primes(candidate)
        if target == candidate:
            return True
    return _suffix_of(target, candidate) or _suffix_of(candidate, target)


def _as_signatures(decls: Mapping[str, str | None] | Iterable[str]) -> list[tuple[str, tuple[str, ...] | None]]:
    """``[(normalized name, signature tokens or None)]`` from a name → header mapping or a list of names."""
    if isinstance(decls, Mapping):
        return [(normalize_name(n), tuple(_signature(h, n).split(" ")) if h else None) for n, h in decls.items()]
    return [(normalize_name(n), None) for n in decls]


def match_names(
    candidate_decls: Mapping[str, str | None] | Iterable[str],
    target_decls: Mapping[str, str | None] | Iterable[str],
) -> list[NameMatch]:
    """Pair target names with candidate declarations by the rules of the module docstring, in target order.

    Each side is either a list of (qualified) names or a mapping from name to its header
    (``theorem name binders : type``, as ``DeclarationSource.header`` gives it); headers enable the ``signature``
    rule. Unmatched targets are left out.
    """
    cands = _as_signatures(candidate_decls)
    targets = _as_signatures(target_decls)
    used: set[int] = set()
    found: dict[int, NameMatch] = {}

    for rule in ("exact", "namespaced", "primed"):
        for ti, (tname, _) in enumerate(targets):
            if ti in found:
                continue
            hits = [ci for ci, (cname, _) in enumerate(cands) if ci not in used and _names_match(rule, tname, cname)]
            if hits:
                used.add(hits[-1])
                found[ti] = NameMatch(tname, cands[hits[-1]][0], rule)

    # Signatures, repeated until nothing new matches: once `f` ↔ `my_f` is known, a signature mentioning `f` on
    # the target side and `my_f` on the candidate side compares equal.
    while True:
        pairs = {targets[ti][0]: m.candidate for ti, m in found.items()}
        target_sigs = {ti: _canonical(targets[ti][1], pairs) for ti in range(len(targets)) if ti not in found}
        cand_sigs = {ci: _canonical(cands[ci][1], {c: c for c in pairs.values()}) for ci in range(len(cands))}
        new = False
        for ti, sig in target_sigs.items():
            if sig is None or ti in found:
                continue
            same_target = [tj for tj, s in target_sigs.items() if tj not in found and s == sig]
            same_cand = [ci for ci, s in cand_sigs.items() if ci not in used and s == sig]
            if len(same_target) == 1 and len(same_cand) == 1:
                used.add(same_cand[0])
                found[ti] = NameMatch(targets[ti][0], cands[same_cand[0]][0], "signature")
                new = True
        if not new:
            return [found[ti] for ti in sorted(found)]


def _canonical(signature: tuple[str, ...] | None, names: Mapping[str, str]) -> tuple[str, ...] | None:
    """A signature with every token naming a key of ``names`` (fully, or by a namespace suffix) replaced by a
    marker of its value, so that matched names compare equal across the two sides."""
    if signature is None:
        return None
    out = []
    for tok in signature:
        n = normalize_name(tok)
        hit = next((v for k, v in names.items() if n and (k == n or _suffix_of(n, k))), None)
        out.append(f"⟦{hit}⟧" if hit is not None else tok)
    return tuple(out)


def rename_map(
    candidate_decls: Mapping[str, str | None] | Iterable[str],
    target_decls: Mapping[str, str | None] | Iterable[str],
) -> dict[str, str]:
    """``{target name: candidate's qualified name}`` for every target that ``match_names`` resolves."""
    return {m.target: m.candidate for m in match_names(candidate_decls, target_decls)}


def declaration_headers(src: str) -> dict[str, str]:
    """``{qualified name: header}`` of the named declarations of ``src`` — the input ``rename_map`` takes."""
    return {d.qualified_name: d.header for d in declarations(src)}
