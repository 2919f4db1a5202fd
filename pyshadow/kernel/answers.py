"""Answers and data targets: what a statement claims when its target is a data declaration, and formal-conjectures'
``answer(e)`` — read so that the answer is compared as part of the statement.

1. **A data declaration means its type is inhabited** — when its value is left open. ``def``/``abbrev``/``instance``
   /``opaque X (b…) : T := sorry`` (ProofNet's ``instance … : CommRing R := sorry``) is discharged by giving a term
   of ``T`` for every argument; as a proposition that is ``∀ b…, Nonempty T`` (Lean core src/Init/Prelude.lean:
   ``class inductive Nonempty (α : Sort u) : Prop | intro (val : α)``). So ProofNet's Lean 4 port ``instance … :
   G ≃* H`` reads as ProofNet#'s ``theorem … : Nonempty (G ≃* H)``. The reading is right whatever ``T`` is: for a
   proposition ``T``, ``Nonempty T ↔ T`` (Lean core src/Init/PropLemmas.lean ``nonempty_prop``, by ``⟨fun ⟨h⟩ => h,
   fun h => ⟨h⟩⟩``, no axiom), so a data declaration whose type is syntactically a proposition keeps it unwrapped.
   From the declaration to the reading is ``fun b… => Nonempty.intro (X b…)`` (no axiom: the full tier prints the
   candidate's applications so, ``pyshadow.score.skeleton_terms``); back, ``fun b… => Classical.choice (h b…)``
   (Prelude ``axiom Classical.choice``), noncomputable, as the ProofNet files' ``noncomputable section`` is.
   A data target whose value is given (``abbrev sol : ℕ := 42``) is read with its value (``with_value``): ``∀ b…,
   Nonempty {x : T | x = v}`` — one atom whose key is the value under the statement's reading, so ``:= 7`` against
   ``:= 42`` fails, and so does a value left open against a given one.

2. **formal-conjectures' ``answer(e)``** (google-deepmind/formal-conjectures FormalConjectures/Util/Answer.lean:
   ``answerElab`` elaborates ``e`` and wraps it in ``mkAnnotation `answer``, an ``Expr.mdata`` the kernel ignores —
   only ``answer(sorry)`` at ``Prop`` is special, and it stays as written here) reads as ``(e)``, so the answer is
   compared as part of the statement. Then ``P ↔ True`` is ``P`` and ``P ↔ False`` is ``¬P`` (Lean core
   src/Init/SimpLemmas.lean ``iff_true``, ``iff_false``, and ``true_iff``/``false_iff`` for the other side), in any
   Prop position; ``schemas.ANSWER_SCHEMA`` proves both without an axiom and tests/test_skeleton_definitions.py
   has the kernel-tier Lean check it. Not where ``answer``/``True``/``False`` is a name the statement binds.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..syntax import ParseError, parse_declaration
from ..syntax import lexer as lx
from ..syntax import terms as tm
from ..syntax.ast import IFF, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Term, atoms, is_proposition
from ..syntax.render import render_declaration, render_term
from ..syntax.scanner import declarations
from .substitution import map_atoms, map_terms, read_key, statement_names, terms

# ---------------------------------------------------------------------------------------------------------------
# 1. Data declarations

# Declarations whose body is a term of their type (data), not a proof: `determine` is PutnamBench's `abbrev`
# (``lexer.DIALECT_DECLARATIONS``).
DATA_KEYWORDS = frozenset({"def", "abbrev", "instance", "opaque"} |
                          {k for k, core in lx.DIALECT_DECLARATIONS.items() if core == "abbrev"})


def is_data_declaration(decl: Declaration) -> bool:
    """Whether ``decl`` is read as ``Nonempty`` of its type (module docstring, 1.): a data keyword and a type that is
    not syntactically a proposition."""
    t = decl.type
    if decl.keyword not in DATA_KEYWORDS or t is None or is_proposition(Binder("(", ("x",), t)):
        return False
    # `Nonempty T` is itself a proposition: `Nonempty (Nonempty T) ↔ Nonempty T` (`nonempty_prop`), keep it.
    node = read_key(t.text) if isinstance(t, Atom) else None
    return not (isinstance(node, tm.App) and isinstance(node.fn, tm.Name) and node.fn.text == "Nonempty")


def data_as_proposition(decl: Declaration) -> Declaration:
    """``def X (b…) : T`` as ``theorem X (b…) : Nonempty (T)`` (module docstring, 1.); any other declaration as it
    is (its keyword, too: a data declaration of a proposition means that proposition)."""
    if not is_data_declaration(decl):
        return replace(decl, keyword="theorem") if decl.keyword in DATA_KEYWORDS else decl
    assert decl.type is not None
    text = f"Nonempty ({_text(decl.type)})"
    idents = tuple(dict.fromkeys(["Nonempty", *(i for a in atoms(decl.type) for i in a.idents)]))
    return replace(decl, keyword="theorem", type=Atom(text, idents))


def declared_value(body: str) -> str | None:
    """The value of a declaration's body text (what follows its header): the term after ``:=`` as written, up to
    its last token (a trailing comment dropped); None for a ``where``/``|`` body or none. ``sorry`` is returned as
    it is (a value left open)."""
    code = lx.code_tokens(body)
    if not code or code[0].text != ":=":
        return None
    rest = code[1:]
    return body[rest[0].start : rest[-1].end] if rest else None


def is_open_value(value: str | None) -> bool:
    return value is not None and value.strip() in ("sorry", "by sorry", "(sorry)")


def open_data_statement(text: str) -> str:
    """The statement Lean compares for ``text``: a data declaration whose value is left open or not written
    (ProofNet's ``instance … : CommRing R``) as ``theorem X (b…) : Nonempty (T)`` (1., as the full tier's checkers
    state it: ``Nonempty (type_of% @X)``, ``Classical.choice`` back); any other text as it is — a data
    declaration with a value among them, whose value Lean would not see."""
    try:
        decl = parse_declaration(text)
    except ParseError:
        return text
    if not is_data_declaration(decl):
        return text
    found = declarations(text)
    if found and found[-1].end > found[-1].statement_end \
            and not is_open_value(declared_value(text[found[-1].statement_end:found[-1].end])):
        return text
    return render_declaration(data_as_proposition(decl))


def with_value(decl: Declaration, value: str | None) -> Declaration:
    """A data target read with its value (module docstring, 1.): ``theorem X (b…) : Nonempty {x : T | x = v}``;
    a value left open (``sorry``) or none: ``data_as_proposition``. ``decl`` is the declaration's header."""
    if not is_data_declaration(decl) or value is None or is_open_value(value):
        return data_as_proposition(decl)
    assert decl.type is not None
    fresh = "pyshadow_value"
    # the value as the declaration elaborates it, against its type: `(v : T)`, never a `binrel%` leaf of `x = v`
    # (`abbrev sol : ℝ := ∑ i ∈ s, (i - 1)` is ℝ's sum; as a leaf it would be ℕ's, cast)
    text = f"Nonempty {{{fresh} : {_text(decl.type)} | {fresh} = ({value} : {_text(decl.type)})}}"
    idents = tuple(dict.fromkeys(["Nonempty", *identifiers(text)]))
    return replace(decl, keyword="theorem", type=Atom(text, tuple(i for i in idents if i != fresh)))


def identifiers(text: str) -> list[str]:
    return [t.text for t in lx.code_tokens(text) if t.kind == lx.IDENT]


# ---------------------------------------------------------------------------------------------------------------
# 2. answer(e), and `↔ True`/`↔ False`

_ANSWER = re.compile(r"(?<![\w.'’])answer\(")


def answers_unwrapped(decl: Declaration) -> Declaration:
    """``answer(e)`` read as ``(e)`` in every atom (module docstring, 2.), before atoms are read as terms."""
    if "answer" in statement_names(decl) or not any("answer(" in a.text for t in terms(decl) for a in atoms(t)):
        return decl

    def atom(a: Atom) -> Atom:
        if "answer(" not in a.text or "answer(sorry)" in a.text.replace(" ", ""):
            return a
        text = _ANSWER.sub("(", a.text)
        idents = a.idents if "answer" in text else tuple(i for i in a.idents if i != "answer")
        return Atom(text, idents, a.open_right)

    return map_terms(decl, lambda t: map_atoms(t, atom))


def constant_iffs(decl: Declaration) -> Declaration:
    """``P ↔ True`` as ``P``, ``P ↔ False`` as ``¬P`` (either side), wherever a proposition stands."""
    if not {"True", "False"}.isdisjoint(statement_names(decl)):
        return decl

    def prop(t: Term) -> Term:
        if isinstance(t, Not):
            return Not(prop(t.arg))
        if isinstance(t, (Quant, Let)):
            return replace(t, body=prop(t.body))
        if isinstance(t, BinOp):
            left, right = prop(t.left), prop(t.right)
            if t.op == IFF:
                for side, other in ((right, left), (left, right)):
                    if isinstance(side, Atom) and side.text == "True":
                        return other
                    if isinstance(side, Atom) and side.text == "False":
                        return Not(other)
            return replace(t, left=left, right=right)
        return t

    binders = tuple(replace(b, type=prop(b.type)) if b.type is not None and is_proposition(b) else b
                    for b in decl.binders)
    return replace(decl, binders=binders, type=prop(decl.type) if decl.type is not None else None)


def _text(t: Term) -> str:
    return t.text if isinstance(t, Atom) else render_term(t)
