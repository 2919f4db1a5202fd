"""How the skeleton reads a statement (``normalize_declaration``): the readings of a statement that Lean makes equal
by a proof term, applied to normalised declarations — ``atoms.canonical_atoms`` first, then ``fold_definitions``,
on both sides of every comparison. Each fold has its module, with the Lean it rests on; the schemas that prove
them are ``schemas``, which the kernel-tier Lean checks:

1. Bool terms in Prop position: ``bool_props``.
2. A variable fixed by a hypothesis: ``fixed_variables``.
3. Auto-bound implicits: ``autobound``.
4. Data declarations and formal-conjectures' ``answer(e)``: ``kernel/answers.py``; the unfolding of the definitions
   a statement uses: ``kernel/local_definitions.py`` (both readings come first).
5. Pointwise definitions: ``pointwise`` (as written text, before atoms are read; then eliminated as in 2.).
7. Quantifiers over a set's elements: ``subtype_binders``.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from ..syntax.ast import Declaration
from ..syntax.render import render_declaration
from .atoms import canonical_atoms
from .answers import (DATA_KEYWORDS, answers_unwrapped, constant_iffs, data_as_proposition,  # noqa: F401
                      is_data_declaration)
from .autobound import auto_implicit, bind_autobound, unknown_names
from .bool_props import bool_props
from .context_variables import with_context_variables
from .fixed_variables import eliminate_one
from .local_definitions import unfold_definitions
from .opens import unread_context
from .pointwise import pointwise_as_definitions
from .substitution import map_atoms as _map_atoms, map_terms as _map_terms
from .subtype_binders import subtype_binders


@functools.lru_cache(maxsize=4096)  # the search, its alias pass and the undecided re-check read the same pair
def normalize_declaration(decl: Declaration, context: str = "") -> Declaration:
    """How the skeleton reads a statement: the ``variable`` s of its ``context`` it includes as its first binders
    (``context_variables``), the definitions of its ``context`` unfolded
    (``local_definitions.unfold_definitions``) and a data declaration read as the proposition it stands for
    (``data_as_proposition``) first, then canonical atoms under its own ``open`` s (``atoms.canonical_atoms``), then
    the Lean-checked folds of this module (auto-bound names as the context's ``autoImplicit`` says)."""
    decl = with_context_variables(decl, context)
    written = pointwise_as_definitions(answers_unwrapped(data_as_proposition(unfold_definitions(decl, context))))
    read = fold_definitions(canonical_atoms(written, context), auto_implicit(context, decl.preamble))
    unread = unread_context(context, render_declaration(decl))
    if unread is None:
        return read
    # a context command the kernel does not read may change every atom's meaning: atoms are keyed with it
    # (as an opaque function applied to the atom, so that the variables it mentions stay visible to the search)
    return _map_terms(read, lambda t: _map_atoms(t, lambda a: replace(a, text=f"«context {unread}» ({a.text})")))


def fold_definitions(decl: Declaration, autobound: bool = True) -> Declaration:
    """``decl`` with Bool terms in Prop position coerced, auto-bound names bound (when ``autobound``: the file's
    ``autoImplicit``) and variables fixed by a defining hypothesis substituted away (module docstring)."""
    decl = subtype_binders(bool_props(bind_autobound(decl) if autobound else unknown_names(decl)))
    while True:
        folded = eliminate_one(decl)
        if folded is None:
            return constant_iffs(decl)
        decl = folded
