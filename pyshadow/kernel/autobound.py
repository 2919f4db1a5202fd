"""Auto-bound implicits (``definitions.py``, 3.). Lean's ``autoImplicit`` (on by default, src/Lean/Elab/AutoBound.lean
``register_builtin_option autoImplicit … defValue := true``; off after ``set_option autoImplicit false`` in the
statement's file or ``… in`` preamble, ``auto_implicit``) binds an identifier the signature uses but that
resolves to nothing as an implicit ``{x : ?}`` in front of the binders, its type found by unification. Eligible
are the names ``isValidAutoBoundSuffix`` admits (one character, then digits, subscripts, ``_`` or ``'``; in the
default relaxed mode any atomic name, but which longer names resolve is Mathlib's to say); read here for the
lowercase Latin ones, which no constant is spelled as (at the root or in the namespaces the alias table knows),
whose type a use fixes (``f x`` with ``f : ℤ → ℤ``, ``resolver.infer_binder_type``); anything else is left alone
(``bind_autobound``). ``∀ {x : T}`` and ``∀ (x : T)`` state the same proposition. With ``autoImplicit`` off, an atom
that mentions such a name is keyed as unknown (``unknown_names``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax.ast import Atom, Binder, Declaration, atoms
from ..syntax.render import render_term
from .resolver import infer_binder_type
from .substitution import (map_atoms as _map_atoms, map_terms as _map_terms, quantified as _quantified,
                           read_key as _read_key, terms as _terms)

# Lean's eligible names when not relaxed (src/Lean/Elab/AutoBound.lean `isValidAutoBoundSuffix`: one character, then
# digits, subscripts, `_` or `'`); of those only lowercase Latin ones, which no constant is spelled as (module
# docstring).
_AUTOBOUND_NAME = re.compile(r"^[a-z][0-9₀-₉ₐ-ₜ_']*$")
_AUTO_IMPLICIT_OFF = re.compile(r"set_option\s+autoImplicit\s+false")


def auto_implicit(context: str, preamble: str | None) -> bool:
    """Whether the file leaves ``autoImplicit`` on for the statement (its default, ``register_builtin_option
    autoImplicit … defValue := true``): off after ``set_option autoImplicit false`` in the context or the
    statement's ``… in`` preamble."""
    return not (_AUTO_IMPLICIT_OFF.search(context or "") or _AUTO_IMPLICIT_OFF.search(preamble or ""))


def _free_names(decl: Declaration) -> list[str]:
    """The names ``autoImplicit`` would bind: eligible, and bound nowhere in the statement."""
    declared = {n for b in decl.binders for n in b.names} | _quantified(decl)
    return list(dict.fromkeys(i for t in _terms(decl) for a in atoms(t) for i in a.idents
                              if _AUTOBOUND_NAME.match(i) and i not in declared))


def unknown_names(decl: Declaration) -> Declaration:
    """With ``autoImplicit`` off, a free name the statement uses is an unknown identifier (the statement does not
    elaborate): every atom that mentions one is keyed so, never as the name another file auto-binds."""
    free = set(_free_names(decl))
    if not free:
        return decl

    def key(a: Atom) -> Atom:
        unknown = sorted(free & set(a.idents))
        return replace(a, text=f"«unknown {' '.join(unknown)}» ({a.text})") if unknown else a

    return _map_terms(decl, lambda t: _map_atoms(t, key))


def bind_autobound(decl: Declaration) -> Declaration:

    terms = _terms(decl)
    free = _free_names(decl)
    if not free:
        return decl
    types = {n: (b.type.text if isinstance(b.type, Atom) else render_term(b.type))
             for b in decl.binders if b.type is not None for n in b.names}
    added = []
    for name in free:
        found = set()
        for t in terms:
            for a in atoms(t):
                node = _read_key(a.text) if name in a.idents else None
                got = infer_binder_type(name, node, types) if node is not None else None
                if got is not None:
                    found.add(got)
        if len(found) != 1:
            return decl  # a name whose type no use fixes (or two uses disagree): leave the statement alone
        added.append(Binder("{", (name,), Atom(found.pop(), ())))
    return replace(decl, binders=(*added, *decl.binders))
