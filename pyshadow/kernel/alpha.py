"""α-renaming of statements: capture-avoiding renaming of variables in trees, canonical binder names for keys, and
the alignment of a candidate's binder names with the reference's.

A statement means the same under any consistent, capture-avoiding renaming of the names it binds, so nothing the
kernel tier concludes may depend on those names. The abstraction keys an atom by its text with the bound variables
it is applied to as positions (``atom_patterns.alpha_pattern``) and the search keys quantified goals by canonical names
(``canonical_binders``); what is left — names that are part of a constant's key (a binder that is read as a
hypothesis, a variable a binder type or a ``let`` mentions) and the search's preference for same-named variables —
is removed by ``align_binders``: before the search, the candidate's declaration binders are renamed to the
reference binders they correspond to, found by kind and type (not by name), so ``theorem (w : ℂ) : …`` and
``theorem (z : ℂ) : …`` are searched alike. Renaming the candidate's own binders never changes what it states.
"""

from __future__ import annotations

from dataclasses import replace

from ..syntax import lexer as lx
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Let, Not, Quant, Rel, Term, atoms, is_proposition, walk
from ..syntax.render import render_term
from .atom_patterns import variable_tokens


def rename_atom(atom: Atom, mapping: dict[str, str]) -> Atom:
    """``atom`` with the variables of ``mapping`` renamed, all at once (``{x ↦ y, y ↦ x}`` swaps them)."""
    if not set(atom.idents) & mapping.keys():
        return atom
    out, last = [], 0
    for tok in variable_tokens(atom.text):
        root = lx.ident_root(tok.text)
        if root in mapping:
            out.append(atom.text[last:tok.start] + mapping[root] + tok.text[len(root):])
            last = tok.end
    out.append(atom.text[last:])
    idents = tuple(dict.fromkeys(mapping.get(i, i) for i in atom.idents))
    return replace(atom, text="".join(out), idents=idents)


def rename(term: Term, mapping: dict[str, str], *, types: bool = False) -> Term:
    """``term`` with free occurrences of the variables in ``mapping`` renamed (binders stop the renaming).

    The type of a data binder (``(a : Fin n)``) is kept as written unless ``types``: the printer abstracts a type
    as one constant keyed by its text, not a family over the variables it mentions, so the type of ``a`` in
    ``∀ n, ∀ a : Fin n, P a`` stays that constant when ``n`` is instantiated — renaming its text would give the
    search another constant than the one Lean sees. ``types`` is for renaming constants (``align_auxiliary_names``)."""
    if not mapping:
        return term
    if isinstance(term, Atom):
        return rename_atom(term, mapping)
    if isinstance(term, Not):
        return Not(rename(term.arg, mapping, types=types))
    if isinstance(term, (BinOp, Rel)):
        return replace(term, left=rename(term.left, mapping, types=types), right=rename(term.right, mapping, types=types))
    if isinstance(term, Quant):
        # Capture-avoiding: a binder named like a variable the renaming introduces (`y ↦ x` under `∀ x`) is renamed
        # apart first, or the renamed occurrence would refer to the inner binder.
        binders, inner = [], dict(mapping)
        for b in term.binders:
            b = _rename_binder(b, inner, types=types)
            names = []
            for n in b.names:
                inner.pop(n, None)
                if n in inner.values():
                    fresh = _apart(n, term, inner)
                    inner[n] = fresh
                    n = fresh
                names.append(n)
            binders.append(replace(b, names=tuple(names)) if tuple(names) != b.names else b)
        return Quant(term.kind, tuple(binders), rename(term.body, inner, types=types))
    if isinstance(term, Let):
        inner = {k: v for k, v in mapping.items() if k != term.name}
        if term.name in inner.values():
            fresh = _apart(term.name, term, inner)
            inner[term.name] = fresh
            return replace(term, name=fresh, value=rename(term.value, mapping),
                           body=rename(term.body, inner, types=types))
        return replace(term, value=rename(term.value, mapping), body=rename(term.body, inner, types=types))
    return term


def canonical_binders(term: Term, level: int = 0) -> Term:
    """``term`` with its ∀/∃ binders renamed by nesting level (``«✝1»``, ``«✝2»`` …: names no statement can
    write), so that α-equivalent statements print to the same key (``Prover.key``): a fact ``∀ x, P x`` then
    proves the goal ``∀ y, P y`` as it is, which Lean accepts (binder names are not part of a term's identity).

    Keys only — the terms given to Lean keep the statement's names — so a name is renamed only where the printer
    abstracts it as a variable (an argument of atom constants, ``atom_patterns.alpha_pattern``). Where its text is part
    of a constant's key instead it is kept: a name a binder *type* or a ``let`` mentions (types and let values are
    keyed by their text), and the binders of an opaque ``∃!`` or of a relation's operand (keyed by their
    rendering). Otherwise two keys could agree where the printed constants differ."""
    if isinstance(term, Not):
        return Not(canonical_binders(term.arg, level))
    if isinstance(term, BinOp):
        return replace(term, left=canonical_binders(term.left, level), right=canonical_binders(term.right, level))
    if isinstance(term, Let):
        return replace(term, body=canonical_binders(term.body, level))
    if not (isinstance(term, Quant) and term.kind in ("∀", "∃")):
        return term
    keyed_by_text = _names_in_texts(term)
    binders, mapping = [], {}
    for b in term.binders:
        b = _rename_binder(b, mapping)
        names = []
        for n in b.names:
            level += 1
            if n != "_" and n not in keyed_by_text:
                mapping[n] = f"«✝{level}»"
                n = mapping[n]
            names.append(n)
        binders.append(replace(b, names=tuple(names)))
    return Quant(term.kind, tuple(binders), canonical_binders(rename(term.body, mapping), level))


def _names_in_texts(term: Quant) -> set[str]:
    """The names that binder types, ``let``s and opaque quantifiers inside ``term`` mention (``canonical_binders``)."""
    names: set[str] = set()
    for node in walk(term):
        if isinstance(node, Quant):
            for b in node.binders:
                if b.type is not None:
                    names.update(i for a in atoms(b.type) for i in a.idents)
            if node.kind not in ("∀", "∃"):
                names.update(i for a in atoms(node) for i in a.idents)
        elif isinstance(node, Let):
            names.update(i for a in atoms(node) for i in a.idents)
    return names


def _apart(name: str, term: Term, mapping: dict[str, str]) -> str:
    """``name`` primed until it names nothing in ``term`` nor in ``mapping``."""
    nodes = list(walk(term))
    used = set(mapping) | set(mapping.values()) | {i for a in nodes if isinstance(a, Atom) for i in a.idents}
    used |= {n for q in nodes if isinstance(q, Quant) for b in q.binders for n in b.names}
    used |= {let.name for let in nodes if isinstance(let, Let)}
    fresh = name + "'"
    while fresh in used:
        fresh += "'"
    return fresh


def _rename_binder(b: Binder, mapping: dict[str, str], *, types: bool = False) -> Binder:
    renamed = b.type is not None and (types or (not b.is_instance and is_proposition(b)))
    t = rename(b.type, mapping, types=types) if renamed else b.type
    bound = (b.bound[0], rename(b.bound[1], mapping, types=types)) if b.bound is not None else None
    return replace(b, type=t, bound=bound)


def align_binders(reference: Declaration, candidate: Declaration) -> dict[str, str]:
    """A renaming of the candidate's declaration binders to the names of the reference binders they correspond to.

    Binders are matched in the candidate's order, each with an unmatched reference binder of the same kind (data,
    hypothesis, instance) whose type reads the same once the names matched so far are renamed — among several,
    the same-named one, else the first; a data binder whose type matches none takes the same-named reference
    binder, else the first unmatched one (a hypothesis or instance that matches none keeps its name). A name is
    never given where the candidate already uses it for something else (a constant, an unmatched binder), so the
    renaming is a bijection that captures nothing."""
    ref = [(n, b) for b in reference.binders for n in b.names if n != "_"]
    cand = [(n, b) for b in candidate.binders for n in b.names if n != "_"]
    own = {n for n, _ in cand}
    used = {i for b in candidate.binders if b.type is not None for a in atoms(b.type) for i in a.idents}
    if candidate.type is not None:
        used |= {i for node in walk(candidate.type) if isinstance(node, Atom) for i in node.idents}
        used |= {n for node in walk(candidate.type) if isinstance(node, Quant) for b in node.binders for n in b.names}
    taken = used - own  # names the candidate uses that are not its declaration binders
    mapping: dict[str, str] = {}
    free = list(ref)
    for name, binder in cand:
        kind = _kind(binder)
        same_kind = [(n, b) for n, b in free if _kind(b) == kind]
        if not same_kind:
            continue
        shown = _type_text(binder, mapping)
        typed = [(n, b) for n, b in same_kind if _type_text(b, {}) == shown]
        if not typed and kind != "data":
            continue  # a hypothesis is known by its statement: one that matches none keeps its name
        pool = typed or same_kind
        chosen = next(((n, b) for n, b in pool if n == name), pool[0])
        free.remove(chosen)
        if chosen[0] not in taken:
            mapping[name] = chosen[0]
    # A candidate binder keeps its name unless another takes it: then it is renamed apart.
    targets = set(mapping.values())
    for name, _ in cand:
        if name not in mapping and name in targets:
            fresh = name + "'"
            while fresh in own or fresh in targets or fresh in used:
                fresh += "'"
            mapping[name] = fresh
            targets.add(fresh)
    return {k: v for k, v in mapping.items() if k != v}


def rename_declaration(decl: Declaration, mapping: dict[str, str]) -> Declaration:
    """``decl`` with its declaration binders renamed by ``mapping`` (all at once), everywhere they occur."""
    if not mapping:
        return decl
    binders = []
    for b in decl.binders:
        b = _rename_binder(b, mapping, types=True)
        binders.append(replace(b, names=tuple(mapping.get(n, n) for n in b.names)))
    return replace(decl, binders=tuple(binders),
                   type=rename(decl.type, mapping, types=True) if decl.type is not None else None)


def _kind(b: Binder) -> str:
    if b.is_instance:
        return "instance"
    return "hypothesis" if b.type is not None and is_proposition(b) else "data"


def _type_text(b: Binder, mapping: dict[str, str]) -> str:
    if b.type is None:
        return ""
    return render_term(rename(b.type, mapping, types=True) if mapping else b.type)


def rename_binders_apart(q: Quant, taken: set[str], fresh) -> Quant:
    """``q`` with each of its own binders named in ``taken`` renamed to ``fresh(name)`` (in the later binders'
    types and the body too); ``q`` itself when none is."""
    if not taken or not any(n in taken for b in q.binders for n in b.names):
        return q
    mapping: dict[str, str] = {}
    binders = []
    for b in q.binders:
        b = _rename_binder(b, mapping)
        names = []
        for n in b.names:
            if n in taken:
                mapping[n] = fresh(n)
                n = mapping[n]
            else:
                mapping.pop(n, None)
            names.append(n)
        binders.append(replace(b, names=tuple(names)))
    return Quant(q.kind, tuple(binders), rename(q.body, mapping))
