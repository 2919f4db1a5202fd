"""Reference files: a target's declaration found by its fully qualified name and parsed; skeletons of new ones.

A problem names its targets fully qualified (``NatPos.pos_facts``). :func:`target_declaration` resolves such a name
the way Lean names declarations — ``namespace A`` … ``end A`` blocks tracked (a ``section`` adds no prefix),
``_root_.`` and «guillemets» dropped (``pyshadow.syntax.scanner.declarations``) — never by guessing from the
name's last component, and parses the declaration's header. A parse error points into the reference file (line,
and column counted from 0 as Lean prints it), not into the extracted statement.
"""

from __future__ import annotations

from .errors import BadInput
from collections.abc import Sequence
from dataclasses import replace

from .syntax.scanner import contains_admit, declarations, normalize_name
from .syntax import ParseError, parse_declaration
from .syntax.ast import Binder, Declaration, atoms, declaration_names
from .syntax.lexer import code_tokens, command_starts, line_col


class TargetNotFound(BadInput):
    """No declaration in the reference has the target's fully qualified name."""

    def __init__(self, target: str, declared: list[str]):
        self.target = target
        self.declared = declared
        shown = ", ".join(sorted(declared)[:6]) + (f", … ({len(declared)} in all)" if len(declared) > 6 else "")
        super().__init__(f"{target!r} is not declared in the reference (declared: {shown or 'none'})")


class TargetParseError(ParseError):
    """The target's header cannot be read; ``line``/``column`` are positions in the reference file."""

    def __init__(self, target: str, reason: str, line: int, column: int):
        super().__init__(reason, line, column)
        self.target = target


def target_source(src: str, target: str):
    """Where the declaration named ``target`` (fully qualified) sits in ``src``: the last one of that name counts,
    as for candidates (DESIGN.md). Raises :class:`TargetNotFound`."""
    wanted = normalize_name(target)
    named = declarations(src)
    matches = [d for d in named if normalize_name(d.qualified_name) == wanted]
    if not matches:
        raise TargetNotFound(target, [d.qualified_name for d in named])
    return matches[-1]


def target_declaration(src: str, target: str) -> Declaration:
    """The parsed header of the declaration named ``target`` (fully qualified) in the Lean file ``src``.

    Raises :class:`TargetNotFound` or :class:`TargetParseError` (a :class:`~pyshadow.syntax.ParseError` whose line
    and column are in ``src``).
    """
    found = target_source(src, target)
    try:
        decl = parse_declaration(found.header)
    except ParseError as err:
        line, column = line_col(src, found.keyword_start)
        raise TargetParseError(target, err.reason, line + err.line - 1,
                               column + err.column if err.line == 1 else err.column) from None
    included = included_variables(scope_variables(src, found.keyword_start), decl)
    return replace(decl, binders=included + decl.binders) if included else decl


def scope_variables(src: str, offset: int) -> tuple[Binder, ...]:
    """The ``variable`` binders in scope at ``offset`` of ``src`` (a ``section``/``namespace`` ends its own), in
    declaration order, one binder per name. A ``variable`` that does not parse (or only updates binder kinds,
    ``variable {x}``) is skipped."""
    code = code_tokens(src)
    starts = command_starts(src, code)
    scopes: list[list[Binder]] = [[]]
    for k, i in enumerate(starts):
        if code[i].start >= offset:
            break
        keyword = code[i].text
        j = starts[k + 1] if k + 1 < len(starts) else len(code)
        if keyword in ("namespace", "section"):
            scopes.append([])
        elif keyword == "end" and len(scopes) > 1:
            scopes.pop()
        elif keyword == "variable" and j - i > 1 and code[j - 1].text != "in":
            try:
                binders = parse_declaration(f"theorem pyshadow_variables {src[code[i + 1].start : code[j - 1].end]}"
                                            " : True").binders
            except ParseError:
                continue
            scopes[-1].extend(Binder(b.bracket, (n,) if b.names else (), b.type, b.default, b.bound)
                              for b in binders if b.type is not None for n in (b.names or ("",)))
    return tuple(b for scope in scopes for b in scope)


def included_variables(variables: tuple[Binder, ...], decl: Declaration) -> tuple[Binder, ...]:
    """The ``variable``s Lean adds to ``decl``'s signature: those its header mentions, those an included variable's
    type mentions, and instance binders all of whose variables are included (Lean 4's rule since variables stopped
    being included by use in proofs), in declaration order."""
    names = {n for b in variables for n in b.names}
    mentioned = set(declaration_names(decl)) & names
    chosen: set[int] = set()
    changed = True
    while changed:
        changed = False
        for k, b in enumerate(variables):
            if k in chosen:
                continue
            uses = {i for a in (atoms(b.type) if b.type is not None else ()) for i in a.idents} & names
            if (set(b.names) & mentioned) or (b.is_instance and uses and uses <= mentioned):
                chosen.add(k)
                mentioned |= uses | set(b.names)
                changed = True
    return tuple(b for k, b in enumerate(variables) if k in chosen)


def reference_skeleton(title: str, body: str, *, imports: tuple[str, ...] = (), preamble: str = "",
                       namespace: str | None = None) -> str:
    """A reference file to fill in: its imports, a module docstring ``/-! # title … -/``, a preamble (``open``
    lines), and an empty ``namespace … end`` block when ``namespace`` is given."""
    parts = []
    if imports:
        parts.append("\n".join(f"import {m}" for m in imports))
    parts.append(f"/-!\n# {title}\n\n{body.strip()}\n-/")
    if preamble.strip():
        parts.append(preamble.strip())
    if namespace:
        parts.append(f"namespace {namespace}\n\nend {namespace}")
    return "\n\n".join(parts) + "\n"


def reference_as_axioms(src: str, targets: Sequence[str], *, only_admitted: bool = False) -> str:
    """``src`` with each target theorem restated as an ``axiom`` (the last declaration of that name; proof dropped);
    with ``only_admitted`` just the targets whose proof uses ``sorry``/``admit``.

    A checker's ``#print axioms`` then lists the target itself, never ``sorryAx``: completeness is a property of
    the target's statement, and a ``sorry`` in its proof must not make every checker look unsound.
    """
    wanted = {normalize_name(t) for t in targets}
    chosen = {}
    for d in declarations(src):
        if normalize_name(d.qualified_name) in wanted and d.keyword in ("theorem", "lemma"):
            if only_admitted and not contains_admit(src[d.statement_end : d.end]):
                chosen.pop(normalize_name(d.qualified_name), None)
                continue
            chosen[normalize_name(d.qualified_name)] = d
    out, last = [], 0
    for d in sorted(chosen.values(), key=lambda d: d.keyword_start):
        header = src[d.keyword_start : d.statement_end].rstrip()
        out += [src[last : d.keyword_start], "axiom", header[len(d.keyword):], "\n\n"]
        last = d.end
    return "".join(out) + src[last:]


def reference_sorry(src: str, targets: Sequence[str]) -> dict[str, bool]:
    """Whether each target's proof in the reference uses ``sorry`` (reported; it does not affect completeness)."""
    wanted = {normalize_name(t) for t in targets}
    found = {normalize_name(d.qualified_name): contains_admit(src[d.statement_end : d.end])
             for d in declarations(src) if normalize_name(d.qualified_name) in wanted}
    return {t: found.get(normalize_name(t), False) for t in targets}
