"""A statement abstracted into prelude-mode Lean: opaque constants for its types and atoms (``Abstraction``) and the
printer of skeleton terms over them (``Printer``).

- every binder type becomes an opaque type constant (``axiom τ3 : Type``), one per distinct type text;
- every atom becomes an opaque constant applied to the bound variables it mentions — a predicate
  (``axiom P2 : τ1 → τ3 → Prop``) where a proposition stands, a term into ``Obj`` where a relation's operand stands
  — keyed by its pattern over those variables (``atom_patterns.alpha_pattern``);
- connectives become the prelude's own ``And``/``Or``/``Iff``/``Exists`` (``prelude.PRELUDE``), ``¬A`` becomes
  ``A → False``, relations become opaque relations on ``Obj`` (``a ≥ b`` is ``LE0 b a``).

Generated names (``τ1``, ``P2``, ``t3``) skip every name the statement uses: a binder ``t1`` would otherwise
shadow the constant ``t1`` in its scope and the block would not elaborate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..syntax.ast import AND, IFF, IMP, OR, Atom, Binder, BinOp, Let, Not, Quant, Rel, Term, atoms, is_proposition
from ..syntax.brackets import split_top_level, strip_outer_parens
from ..syntax.render import render_term
from ..syntax.names import FreshNames
from .atom_patterns import alpha_pattern
from .normalize import atom_key, type_key

# Relations as opaque binary relations on Obj: (constant, swap operands, negate).
RELATION_MAP = {
    "=": ("Eq", False, False), "≠": ("Eq", False, True), "≤": ("LE0", False, False), "≥": ("LE0", True, False),
    "<": ("LT0", False, False), ">": ("LT0", True, False), "∈": ("Mem0", False, False),
    "∉": ("Mem0", False, True), "⊆": ("Sub0", False, False), "⊇": ("Sub0", True, False),
    "⊂": ("SSub0", False, False), "⊃": ("SSub0", True, False), "∣": ("Dvd0", False, False),
}


class Abstraction:
    """Abstract constants of one statement block: types, predicates and terms, each declared once."""

    def __init__(self, taken: frozenset[str] | set[str] = frozenset()) -> None:
        self.types: dict[str, str] = {}
        self.preds: dict[tuple, str] = {}
        self.terms: dict[tuple, str] = {}
        self.classes: dict[tuple, str] = {}
        self.let_values: dict[str, str] = {}  # a let value's key (``atom_key``) → its constant (a ``terms`` entry)
        self.let_types: dict[str, str] = {}  # `let x : T` (``type_key``) as written → its type constant
        self.declarations: list[str] = []
        # Names the statement itself uses (``statement_names``): a binder `t1` or `P1` would shadow a constant of
        # that name wherever it is in scope, so constants are numbered around them.
        self._fresh = FreshNames(taken)
        self.taken = self._fresh.taken  # the statement's names and every constant named so far

    def fresh(self, prefix: str) -> str:
        """``prefix`` and the next number that names nothing in the statement (``τ1``, ``P2``, ``t3`` …)."""
        return self._fresh(prefix)

    @property
    def axioms(self) -> list[str]:
        return [*self.types.values(), *self.preds.values(), *self.terms.values(), *self.classes.values()]

    def type_const(self, text: str) -> str:
        key = type_key(text)
        if key not in self.types:
            name = self.fresh("τ")
            self.types[key] = name
            self.declarations.append(f"axiom {name} : Type")
        return self.types[key]

    def _apply(self, table: dict, prefix: str, result: str, text: str, args: list[tuple[str, str]]) -> str:
        pattern, args = alpha_pattern(atom_key(text), args)
        key = (pattern, tuple(t for _, t in args))
        if key not in table:
            name = self.fresh(prefix)
            table[key] = name
            arrows = "".join(f"{t} → " for _, t in args)
            self.declarations.append(f"axiom {name} : {arrows}{result}")
        name = table[key]
        return f"({name} {' '.join(n for n, _ in args)})" if args else name

    def class_const(self, text: str, args: list[tuple[str, str]]) -> str:
        """An instance binder's type ``Field K`` as an opaque class applied to the variables it mentions
        (``class κ1 (x1 : τ1) : Prop``): instance binders stay instance binders, which Lean allows only on a class."""
        pattern, args = alpha_pattern(atom_key(text), args)
        key = ("class", pattern, tuple(t for _, t in args))
        if key not in self.classes:
            name = self.fresh("κ")
            self.classes[key] = name
            params = "".join(f" (x{i} : {t})" for i, (_, t) in enumerate(args, start=1))
            self.declarations.append(f"class {name}{params} : Prop")
        name = self.classes[key]
        return f"{name} {' '.join(n for n, _ in args)}".strip()

    def pred(self, text: str, args: list[tuple[str, str]]) -> str:
        return self._apply(self.preds, "P", "Prop", text, args)

    def term(self, text: str, args: list[tuple[str, str]]) -> str:
        return self._apply(self.terms, "t", "Obj", text, args)


@dataclass
class Scope:
    """Bound variables in order, each with its abstract type constant (innermost last)."""

    entries: list[tuple[str, str]] = field(default_factory=list)

    def bind(self, name: str, type_const: str) -> "Scope":
        return Scope(self.entries + [(name, type_const)])

    def mentioned(self, idents) -> list[tuple[str, str]]:
        """The bound variables among ``idents``, in the order the atom mentions them — not binding order, so the
        same atom is the same application whatever order a candidate binds its variables in."""
        latest = {n: t for n, t in self.entries}
        return [(n, latest[n]) for n in dict.fromkeys(idents) if n in latest and n != "_"]


class Printer:
    """Prints skeleton terms as prelude-mode Lean over an ``Abstraction``.

    ``twin`` (the checkers' kernel tier): binders keep their kind — ``{}``, ``⦃⦄``, ``[]`` (an instance of an opaque
    class, ``Abstraction.class_const``), in the header and in the conclusion's ∀ — and a variable whose type is a
    sort (``Type u_1``, ``Sort u``, ``ι → Type u_2``) keeps that sort and its universe, so that the checkers'
    terms elaborate here exactly as in the full tier (implicit lambdas, universe parameters). Without it (the
    skeleton search, ``pyshadow.kernel.skeleton``) every ∀ binder is explicit and instances are implicit.
    """

    def __init__(self, abstraction: Abstraction, *, twin: bool = False):
        self.a = abstraction
        self.twin = twin

    def q(self, constant: str) -> str:
        """A prelude constant, qualified with ``_root_`` when the statement binds a variable of that name
        (``(And : Prop)`` would otherwise shadow the connective)."""
        return f"_root_.{constant}" if constant in self.a.taken else constant

    def prop(self, term: Term, scope: Scope) -> str:
        if isinstance(term, Atom):
            return self.a.pred(term.text, scope.mentioned(term.idents))
        if isinstance(term, Not):
            return f"({self.prop(term.arg, scope)} → {self.q('False')})"
        if isinstance(term, BinOp):
            left, right = self.prop(term.left, scope), self.prop(term.right, scope)
            if term.op == IMP:
                return f"({left} → {right})"
            return f"({self.q({AND: 'And', OR: 'Or', IFF: 'Iff'}[term.op])} {left} {right})"
        if isinstance(term, Rel):
            const, swap, negate = RELATION_MAP[term.op]
            a, b = self.operand(term.left, scope), self.operand(term.right, scope)
            if swap:
                a, b = b, a
            rel = f"({self.q(const)} {a} {b})"
            return f"({rel} → {self.q('False')})" if negate else rel
        if isinstance(term, Quant):
            if term.kind == "∀":
                groups, inner = self.binders(term.binders, scope, quantifier=True)
                return f"(∀ {' '.join(groups)}, {self.prop(term.body, inner)})"
            if term.kind == "∃":
                return self._exists(term.binders, term.body, scope)
            return self._opaque(term, scope)  # ∃! stays one opaque proposition
        if isinstance(term, Let):
            # The let-bound name gets its own abstract type; its value is an opaque constant of that type.
            # An anonymous or pattern let (`have : p := …`, `let ⟨a, b⟩ := …`) binds nothing the atoms can name.
            name = term.name if term.name.isidentifier() else "_"
            ty = self._let_type(term, scope)
            inner = scope.bind(name, ty) if name != "_" else scope
            return (f"(let {name} : {ty} := {self._let_value(ty, scope, term)}; "
                    f"{self.prop(term.body, inner)})")
        raise TypeError(term)

    def _let_type(self, let: Let, scope: Scope) -> str:
        """The let-bound name's abstract type, keyed by its type (else its value) as a pattern over the variables it
        mentions — like every term, which the abstraction maps into ``Obj`` whatever its variables — so that a
        let with a variable renamed has the same type (``alpha_pattern``); ``let_types`` keeps the written key."""
        typed = let.type if let.type is not None else let.value
        written = type_key(f"let {let.name} : {typed.text}")
        pattern = alpha_pattern(atom_key(typed.text), scope.mentioned(typed.idents))[0]
        ty = self.a.type_const(f"let {let.name} : {pattern}")
        self.a.let_types.setdefault(written, ty)
        return ty

    def _let_value(self, ty: str, scope: Scope, let: Let) -> str:
        # Keyed by its pattern over the variables it is applied to, as atoms are (``alpha_pattern``): a let value
        # with a variable renamed is the same constant applied to the other variable.
        text = atom_key(let.value.text)
        pattern, args = alpha_pattern(text, scope.mentioned(let.value.idents))
        key = (pattern, tuple(t for _, t in args), ty)
        if key not in self.a.terms:
            name = self.a.fresh("t")
            self.a.terms[key] = name
            arrows = "".join(f"{t} → " for _, t in args)
            self.a.declarations.append(f"axiom {name} : {arrows}{ty}")
        name = self.a.terms[key]
        self.a.let_values.setdefault(text, name)
        return f"({name} {' '.join(n for n, _ in args)})" if args else name

    def _opaque(self, term: Term, scope: Scope) -> str:
        idents: dict[str, None] = {}
        for a in atoms(term):
            idents.update(dict.fromkeys(a.idents))
        return self.a.pred(render_term(term), scope.mentioned(idents))

    def operand(self, term: Term, scope: Scope) -> str:
        if isinstance(term, Atom):
            return self.a.term(term.text, scope.mentioned(term.idents))
        idents: dict[str, None] = {}
        for a in atoms(term):
            idents.update(dict.fromkeys(a.idents))
        return self.a.term(render_term(term), scope.mentioned(idents))

    def _exists(self, binders: tuple[Binder, ...], body: Term, scope: Scope) -> str:
        flat: list[tuple[str, Binder]] = [(n, b) for b in binders for n in (b.names or ("_",))]

        def go(i: int, sc: Scope) -> str:
            if i == len(flat):
                return self.prop(body, sc)
            name, b = flat[i]
            ty, is_prop = self._binder_type(b, sc)
            inner = sc if is_prop else sc.bind(name, ty)
            rest = go(i + 1, inner)
            if b.bound is not None:
                rest = f"({self.q('And')} {self.prop(Rel(b.bound[0], Atom(name, (name,)), b.bound[1]), inner)} {rest})"
            return f"({self.q('Exists')} (fun ({name} : {ty}) => {rest}))"

        return go(0, scope)

    def _binder_type(self, b: Binder, scope: Scope, *, header: bool = False) -> tuple[str, bool]:
        """A binder's abstract type and whether it is a hypothesis (a proposition binder).

        In the skeleton search (not the twin) a declaration's instance binder ``[C x]`` is a hypothesis ``C x``:
        ``∀ [inst : C x], P`` and ``C x → P`` are one Π-type (binder annotations are not part of the type; Lean's
        ``Expr.forallE`` carries the ``BinderInfo`` only for elaboration), so a statement that writes its
        hypothesis as an implication is the same statement. Applied as everywhere with every argument explicit
        (``@cand … inst …``), which a full-tier instance binder accepts too."""
        if header and not self.twin and b.is_instance and b.type is not None:
            return self.prop(b.type, scope), True
        if self.twin and b.type is not None:
            text = render_term(b.type)
            if b.is_instance:
                idents = dict.fromkeys(i for a in atoms(b.type) for i in a.idents)
                return self.a.class_const(text, scope.mentioned(idents)), False
            family = sort_family(text)
            if family is not None:
                domains, sort = family
                if not domains:
                    return sort, False
                return "(" + "".join(f"{self.a.type_const(d)} → " for d in domains) + sort + ")", False
        if b.type is not None and not b.is_instance and is_proposition(b):
            return self.prop(b.type, scope), True
        if b.type is None:
            return self.a.type_const("_"), False
        return self.a.type_const(render_term(b.type)), False

    def binders(self, binders: tuple[Binder, ...], scope: Scope, *, quantifier: bool = False,
                implicit_variables: bool = False) -> tuple[list[str], Scope]:
        """Binder groups in prelude Lean, one name per group (types may differ after abstraction)."""
        groups: list[str] = []
        for b in binders:
            ty, is_prop = self._binder_type(b, scope, header=not quantifier)
            if self.twin and b.is_instance and not b.names:
                groups.append(f"[{ty}]")  # an anonymous instance binder of the conclusion's ∀
                continue
            for n in b.names or ("_",):
                bracket = "(" if quantifier or b.bracket in ("(", "") else "{"
                if self.twin:
                    bracket = "(" if b.bracket in ("(", "") else b.bracket
                if implicit_variables and not is_prop and not (self.twin and b.is_instance):
                    bracket = "{"
                if b.is_instance and not quantifier and not self.twin:
                    bracket = "{"
                close = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}[bracket]
                groups.append(f"{bracket}{n} : {ty}{close}")
                # An instance's type depends on its class arguments: atoms mentioning it do not take it (they are
                # opaque anyway), so no atom constant needs a dependent type.
                if not is_prop and not (self.twin and b.is_instance):
                    scope = scope.bind(n, ty)
                if b.bound is not None:
                    bound = self.prop(Rel(b.bound[0], Atom(n, (n,)), b.bound[1]), scope)
                    groups.append(f"(_ : {bound})")
        return groups, scope


# A sort, or a family of sorts (`ι → Type u_1`): the twin keeps it, universe and all (only the domains become
# opaque types). Any other type is an opaque type constant.
_SORT_TEXT = re.compile(r"^(?:Type|Sort)(?:\s+(?:[\w.']+|\([^()]*\)|_))?$|^Prop$")


def sort_family(text: str) -> tuple[list[str], str] | None:
    """``ι → Type u_1`` → (["ι"], "Type u_1"); ``Sort u`` → ([], "Sort u"); ``None`` when the type is no sort
    (family). ``Prop`` alone stays an opaque type (a proposition variable is abstracted as before)."""
    parts = [p.strip() for p in split_top_level(text, "→")]
    last = strip_outer_parens(parts[-1])
    if last == "Prop" and len(parts) == 1:
        return None
    if not _SORT_TEXT.match(last):
        return None
    return parts[:-1], last
