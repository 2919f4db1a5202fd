"""The file's ``variable`` binders a theorem includes, read as its leading binders — so a statement that mentions a
``variable (x : ℕ)`` of its file is read over ``x : ℕ``, not over a free name (or an auto-bound one typed from its
uses).

Lean adds to a theorem the ``variable`` binders its header mentions, the ones their types mention in turn, and the
instance binders all of whose variables are included (leanprover/lean4 src/Lean/Elab/MutualDef.lean, variable
inclusion; ``include x`` forces one in); they come first, in declaration order. A ``variable`` lasts to the ``end``
of its section or namespace (src/Lean/Elab/BuiltinCommand.lean). The statement's own binder of the same name
shadows a variable (it is not included through that name). A ``variable`` command the statement reader cannot
parse is read with each name's type as one atom keyed by its text, so two files agree only on the same text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ..syntax import ParseError, parse_declaration
from ..syntax.ast import Atom, Binder, Declaration, atoms
from .keys import key_idents
from .opens import scope_commands
from .substitution import terms

_NAMES = re.compile(r"[(\[{⦃]\s*([^:()\[\]{}⦃⦄]+?)\s*:")


@functools.lru_cache(maxsize=1024)
def context_variables(context: str) -> tuple[Binder, ...]:
    """The ``variable`` binders in scope at the end of ``context``, in order, and the names ``include`` forces in
    (as binders of bracket ``include``: names only)."""
    if not context or "variable" not in context:
        return ()
    scopes: list[list[Binder]] = [[]]
    for command in scope_commands(context):
        words = command.split()
        if words[:2] == ["noncomputable", "section"]:
            words = words[1:]
        head = words[0]
        if head == "variable":
            scopes[-1].extend(_binders(command[len("variable"):].strip()))
        elif head == "include":
            scopes[-1].append(Binder("include", tuple(words[1:]), None))
        elif head in ("section", "namespace"):
            scopes.append([])
        elif head == "end" and len(scopes) > 1:
            scopes.pop()
    return tuple(b for scope in scopes for b in scope)


def _binders(text: str) -> list[Binder]:
    try:
        return list(parse_declaration(f"theorem pyshadow_variables {text} : True").binders)
    except ParseError:
        # unread: one binder per name, its type the group's text as one atom (equal only to the same text)
        return [Binder("(", (n,), Atom(f"«variable type {text}»", ())) for group in _NAMES.findall(text)
                for n in group.split()]


def with_context_variables(decl: Declaration, context: str) -> Declaration:
    """``decl`` with the ``variable`` binders of ``context`` Lean includes in it prepended (module docstring)."""
    declared = context_variables(context or "")
    if not declared:
        return decl
    own = {n for b in decl.binders for n in b.names}
    mentioned = {i for t in terms(decl) for a in atoms(t) for i in (a.idents or _idents(a.text))} - own
    forced = {n for b in declared if b.bracket == "include" for n in b.names}
    binders = _latest([b for b in declared if b.bracket != "include"])
    names = {n for b in binders for n in b.names}
    included = [bool(set(b.names) & (mentioned | forced)) for b in binders]
    changed = True
    while changed:  # what an included binder's type mentions is included; instance binders over included names
        changed = False
        inside = {n for b, inc in zip(binders, included) if inc for n in b.names}
        needed = {i for b, inc in zip(binders, included) if inc and b.type is not None for i in _type_idents(b)}
        for k, b in enumerate(binders):
            if included[k]:
                continue
            uses = _type_idents(b) & names if b.type is not None else set()
            if set(b.names) & needed or (b.is_instance and uses <= inside):  # `[Add ℕ]` over none: included
                included[k] = changed = True
    chosen = [b for b, inc in zip(binders, included) if inc]
    if not chosen:
        return decl
    # a name the statement binds itself shadows the variable: keep only the variable's other names
    chosen = [replace(b, names=tuple(n for n in b.names if n not in own)) if b.names else b for b in chosen]
    chosen = [b for b in chosen if b.names or b.is_instance]
    return replace(decl, binders=(*chosen, *decl.binders))


def _latest(binders: list[Binder]) -> list[Binder]:
    """The binders with each name bound by its last ``variable`` only: a later ``variable (x : ℝ)`` shadows an
    earlier ``(x : ℕ)`` (the statement's ``x`` names the later one)."""
    out: list[Binder] = []
    for k, b in enumerate(binders):
        later = {n for c in binders[k + 1:] for n in c.names}
        names = tuple(n for n in b.names if n not in later)
        if names or (b.is_instance and not b.names):
            out.append(replace(b, names=names) if names != b.names else b)
    return out


def _type_idents(b: Binder) -> set[str]:
    return {i for a in atoms(b.type) for i in (a.idents or _idents(a.text))} if b.type is not None else set()


def _idents(text: str) -> tuple[str, ...]:
    return key_idents(text)  # the lexer's identifier roots, as atoms are indexed
