"""The trust gate's detectors of what a declaration affects rather than how it is written: instances of foreign
classes in every syntactic form, attributes changed on library declarations, section variables forced on every
theorem, declarations in the checkers' namespaces or named like core and library names, and look-alike identifiers.
The table of rules and the policy are in ``pyshadow.score.audit``."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from ..syntax.lexer import CLOSE_BRACKETS, COMMAND_KEYWORDS, IDENT, OPEN_BRACKETS, SYMBOL, Token, tokenize
from ..syntax.scanner import ADMIT_WORDS, NamedDeclaration, declarations, name_components, normalize_name, walk_scopes
from .audit_source import Source, _idents, _matching_bracket, _top_level

PROOF_LIKE_CLASSES = frozenset(
    {"Fact", "NeZero", "Nonempty", "Nontrivial", "IsEmpty", "Subsingleton", "Decidable", "DecidableEq",
     "DecidablePred", "DecidableRel", "Fintype", "Finite", "Infinite", "Countable"}
)
CLASSICAL_INSTANCES = frozenset(
    {"Classical.propDecidable", "Classical.dec", "Classical.decEq", "Classical.decPred", "Classical.decRel",
     "Classical.decidableInhabited", "Classical.typeDecidableEq", "Classical.typeDecidable"}
)
# Namespaces the checkers live in (pyshadow.score.checker_file.CHECKS_NAMESPACE): a candidate declaring anything there — a
# `Nat`, a scoped instance — changes what every checker statement means once the checker file enters it.
# The statements module (STATEMENTS_MODULE) and both, suffixed with a per-run nonce (`PyshadowChecks_<hex>`), too.
RESERVED_NAMESPACES = frozenset({"PyshadowChecks", "PyshadowStatements", "PyshadowCandidate"})
# Core and Mathlib type and class names a statement reads: a candidate that declares one of them (in any namespace)
# can make its statement read the same and mean something else (`namespace Tiny def Nat := Fin 1`).
CORE_TYPE_NAMES = frozenset(
    {"Nat", "Int", "Rat", "Real", "Complex", "Bool", "Prop", "Type", "Sort", "List", "Array", "Set", "Finset",
     "Multiset", "Fin", "ZMod", "Option", "Prod", "Sum", "Subtype", "String", "Char", "Unit", "True", "False", "Eq",
     "Ne", "Not", "And", "Or", "Iff", "Exists", "Polynomial", "Matrix", "ENNReal", "NNReal", "EReal", "PNat",
     "Function", "ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "LE", "LT", "Add", "Mul", "Sub", "Div", "Neg", "Inv", "Pow", "Dvd", "Mod",
     "HAdd", "HMul", "HSub", "HDiv", "HPow", "HMod", "Zero", "One", "OfNat", "Membership", "Abs", "Max", "Min",
     "Finite", "Fintype", "Decidable", "Nonempty", "Inhabited", "Even", "Odd", "Prime", "Nat.Prime", "Irrational",
     "Continuous", "Differentiable", "deriv", "Real.sqrt", "Real.pi", "abs", "max", "min", "gcd", "lcm"}
)
# Letters of other scripts that render like Latin ones: an identifier mixing them with Latin letters (`Νat`, Greek
# capital Nu) is made to be misread. Single Greek letters (`α`, `ν`, `μ`) and all-Greek names are left alone.
# (Only letters Lean accepts in identifiers matter: Greek, Coptic and Latin Extended-A ones; Cyrillic is no
# identifier character in Lean, so `Nаt` with a Cyrillic а does not even parse.) Each maps to the Latin letter it
# passes for.
CONFUSABLE_WITH_LATIN = {
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ι": "i", "ϲ": "c", "ν": "v", "ρ": "p", "υ": "u", "χ": "x", "ϳ": "j",
    "ı": "i", "ſ": "f",
}
# Lower-case Greek letters are ordinary mathematical names (`hρ : 0 < ρ`, `xν`): they count as disguise only when
# the Latin reading is a name that matters (a core name, `sorry`, or a name the file or the reference uses).
_PLAIN_GREEK = frozenset("οινρυχ")


def detect_forced_hypothesis(s: Source) -> Iterator[int]:
    """``include``, and ``variable`` instance binders that depend on no variable (so every theorem gets them)."""
    code = list(s.code)
    variables: set[str] = set()
    instance_binders: list[tuple[Token, list[Token]]] = []
    for i, t in _idents(s):
        if t.text == "include":
            yield t.start
        elif t.text == "variable":
            for opener, inner in _variable_binders(s.text, code, i + 1):
                names, body = _split_binder(inner)
                if opener.text == "[":
                    instance_binders.append((opener, body))
                variables.update(names)
    for opener, body in instance_binders:
        roots = {name_components(normalize_name(t.text))[0] for t in body if t.kind == IDENT}
        if not roots & variables:
            yield opener.start


def _variable_binders(text: str, code: list[Token], i: int) -> Iterator[tuple[Token, list[Token]]]:
    """The bracketed binders of a ``variable`` command starting at ``code[i]``: (opening bracket, inner tokens)."""
    while i < len(code) and code[i].kind == SYMBOL and code[i].text in {"(", "{", "[", "⦃", "{{"}:
        close = _matching_bracket(code, i)
        yield code[i], code[i + 1 : close]
        i = close + 1


def _split_binder(inner: list[Token]) -> tuple[list[str], list[Token]]:
    """(names bound, type tokens) of one binder's inside: ``x y : T`` → (["x", "y"], T); ``C α`` → ([], C α)."""
    for k, t in enumerate(inner):
        if t.kind == SYMBOL and t.text == ":":
            return [x.text for x in inner[:k] if x.kind == IDENT], inner[k + 1 :]
        if t.kind != IDENT:
            break
    return [], inner


def _own_names(s: Source) -> set[str]:
    return {d.qualified_name for d in s.named}


def _is_own(name: str, own: set[str]) -> bool:
    """Whether ``name`` (as written, possibly relative to open namespaces) resolves to a candidate declaration."""
    n = normalize_name(name)
    return any(q == n or q.endswith("." + n) for q in own)


def detect_foreign_attribute(s: Source) -> Iterator[int]:
    """``attribute [...] X`` changing a declaration ``X`` the candidate did not declare."""
    own = _own_names(s)
    for a in s.attributes:
        if a.command is None:
            continue
        for target in a.targets:
            name = normalize_name(target.text)
            if a.name == "instance":  # instances are judged by foreign_instance, whatever their scope
                continue
            # A `local` attribute (not `scoped`: that one comes back wherever the namespace is opened) dies with
            # the candidate's module: `attribute [local simp] Nat.le_add_right` changes nothing the checkers see.
            allowed = a.local and not a.scoped
            if not allowed and not _is_own(name, own):
                yield target.start


def _instance_class(header: str) -> str | None:
    """The class an instance header provides: the head of its type after the top-level colon, past any binders
    (``∀ x, C``, ``[D] → C``, ``(x : α) → C``, ``{α} → C``) and ``@``/parentheses. None when there is no type."""
    toks = [t for t in tokenize(header) if not t.is_trivia]
    colon = _top_level(toks, 0, {":"})
    if colon is None:
        return None
    rest = toks[colon + 1 :]
    while rest:
        if rest[0].text in {"∀", "Π"}:  # `∀ binders, C …`: skip to the comma at depth 0
            comma = _top_level(rest, 0, {","})
            rest = rest[comma + 1 :] if comma is not None else []
            continue
        if rest[0].text in {"[", "{", "⦃", "("} and rest[0].kind == SYMBOL:
            arrow = _top_level(rest, 0, {"→", "->"})
            close = _matching_bracket(rest, 0)
            if arrow is not None and arrow == close + 1:  # a binder arrow: `[D] → C`
                rest = rest[arrow + 1 :]
                continue
        break
    for t in rest:
        if t.kind == IDENT:
            return normalize_name(t.text)
        if t.text not in {"(", "@"}:
            return None
    return None


def _allowed_class(cls: str, s: Source, offset: int) -> bool:
    """Whether instances of ``cls`` (as written) are harmless: the candidate's own ``class`` that extends nothing
    foreign, or a proof-like class of the policy's list written by its own name — and no candidate declaration
    could capture that name (``Order.Decidable``, a class named ``Decidable`` in some namespace)."""
    if _resolves_to_own(cls, s, _own_classes(s), offset):
        return True
    parts = name_components(cls)
    if not parts or parts[-1] not in s.policy.allowed_instance_classes or len(parts) > 1:
        return False
    return not any(name_components(d.qualified_name)[-1:] == parts[-1:] for d in s.named)


def _resolves_to_own(name: str, s: Source, own: set[str], offset: int) -> bool:
    """Whether ``name``, written at ``offset``, resolves to one of ``own`` as Lean resolves it: ``_root_.N`` is the
    root ``N``; otherwise the innermost enclosing namespace that has an ``N`` wins. A name the candidate could only
    mean through ``open`` is not counted as own (the library's class of that name competes with it)."""
    n = normalize_name(name)
    if name.startswith("_root_"):
        return n in own
    spaces = walk_scopes(s.text).namespace_at(offset)
    return any(".".join([*spaces[:k], n]) in own for k in range(len(spaces), -1, -1))


def _own_classes(s: Source) -> set[str]:
    """The candidate's own classes: declared with ``class`` and extending no foreign class (a parent's projection is
    a global instance: ``class C extends LE Nat`` provides ``LE Nat`` wherever a ``C`` instance exists)."""
    return {d.qualified_name for d in s.named if d.keyword == "class" and not _foreign_parents(d, s)}


def _foreign_parents(d: NamedDeclaration, s: Source) -> list[str]:
    """The ``extends`` parents of a class declaration that are neither the candidate's nor allowed."""
    toks = [t for t in tokenize(d.header) if not t.is_trivia]
    k = next((i for i, t in enumerate(toks) if t.kind == IDENT and t.text == "extends"), None)
    if k is None:
        return []
    parents: list[str] = []
    depth, expect_head = 0, True
    for t in toks[k + 1 :]:
        if t.kind == SYMBOL and t.text in OPEN_BRACKETS:
            depth += 1
        elif t.kind == SYMBOL and t.text in CLOSE_BRACKETS:
            depth -= 1
        elif depth == 0 and t.text == ",":
            expect_head = True
        elif depth == 0 and t.text in {":", "where", ":="}:
            break
        elif expect_head and t.kind == IDENT:
            parents.append(normalize_name(t.text))
            expect_head = False
    own = {q.qualified_name for q in s.named if q.keyword == "class" and q is not d}
    return [p for p in parents if not _is_own(p, own) and p not in s.policy.allowed_instance_classes]


def detect_foreign_instance(s: Source) -> Iterator[int]:
    """New instances of classes that are not the candidate's own (or proof-like), in every syntactic form:
    ``instance`` (``scoped``/``local`` too), ``@[instance]`` / ``@[local instance]`` on any declaration, ``attribute
    [instance] X`` with ``X`` on any line, ``class … extends Foreign``, and instance binders in front of the class."""
    # `@[instance]` belongs to the first declaration after it, on the same line or any later one.
    owned = {_declaration_after(s, a.owner_offset) for a in s.attributes if a.name == "instance" and a.command is None}
    for d in s.declarations:
        is_instance = d.keyword == "instance" or d.keyword_start in owned
        if d.keyword == "class" and _foreign_parents(d, s):
            yield d.keyword_start
            continue
        if not is_instance:
            continue
        cls = _instance_class(d.header)
        if cls is None or not _allowed_class(cls, s, d.keyword_start):
            yield d.keyword_start
    by_name = {d.qualified_name: d for d in s.named}
    for a in s.attributes:
        if a.name != "instance" or a.command is None:
            continue
        if not a.targets:
            yield a.token.start  # an instance attribute whose target the gate cannot see
        for target in a.targets:
            name = normalize_name(target.text)
            if a.local and name in s.policy.allowed_local_instances:
                continue
            decl = next((d for q, d in by_name.items() if q == name or q.endswith("." + name)), None)
            cls = _instance_class(decl.header) if decl is not None else None
            if cls is None or not _allowed_class(cls, s, decl.keyword_start if decl else target.start):
                yield target.start


def _declaration_after(s: Source, offset: int) -> int | None:
    """Keyword offset of the first declaration whose keyword follows ``offset``."""
    return next((d.keyword_start for d in s.declarations if d.keyword_start > offset), None)


def detect_reserved_namespace(s: Source) -> Iterator[int]:
    """Declarations, ``namespace`` blocks and names in the checkers' own namespaces (``PyshadowChecks``,
    ``PyshadowStatements``, each also with a ``_<nonce>`` suffix) or the candidate module's name."""
    reserved = s.policy.reserved_namespaces

    def is_reserved(name: str) -> bool:
        return any(part in reserved or part.split("_", 1)[0] in reserved for part in name_components(name))

    for _, t in _idents(s):
        if is_reserved(normalize_name(t.text)):
            yield t.start
    for d in s.declarations:
        if is_reserved(d.qualified_name):
            yield d.keyword_start


def detect_shadowed_name(s: Source) -> Iterator[int]:
    """Declarations named like a core or Mathlib type or class (``Tiny.Nat``, ``Mine.LE``), or like a library name
    the reference's statement uses (``Foo.Nat.choose`` when the reference says ``Nat.choose``): in any namespace, the
    candidate's statement — and a checker that enters that namespace — can then read like the reference's and mean
    something else."""
    for d in s.named:
        parts = name_components(d.qualified_name)
        if parts and (parts[-1] in CORE_TYPE_NAMES or ".".join(parts[-2:]) in CORE_TYPE_NAMES):
            yield d.keyword_start
        elif any(d.qualified_name == u or d.qualified_name.endswith("." + u) for u in s.reference_names):
            yield d.keyword_start


@functools.lru_cache(maxsize=256)  # the gate asks once per candidate for the same problem's reference
def reference_used_names(reference: str) -> frozenset[str]:
    """Library names a reference uses and does not declare itself: identifiers of two or more components
    (``Nat.choose``, ``Real.sqrt``) or capitalised (``Prime``, ``Irrational``) — binder names are neither, as a rule."""
    if not reference:
        return frozenset()
    declared = {d.qualified_name for d in declarations(reference)}
    used = set()
    for t in tokenize(reference):
        if t.kind != IDENT or t.is_trivia or t.text in COMMAND_KEYWORDS:
            continue
        name = normalize_name(t.text)
        parts = name_components(name)
        if not parts or not (len(parts) >= 2 or parts[0][:1].isupper()):
            continue
        if any(q == name or q.endswith("." + name) or name.endswith("." + q) for q in declared):
            continue
        used.add(name)
    return frozenset(used)


def detect_confusable_identifier(s: Source) -> Iterator[int]:
    """Identifiers that mix Latin letters with look-alikes of other scripts in one component and are made to be
    misread: a capital look-alike (``Νat``, Greek Nu; ``Ρrop``), ``ı``/``ſ``, or a lower-case Greek one whose Latin
    reading is a core name, an admitting word or another name of the file or the reference (``sοrry``)."""
    names = {normalize_name(t.text) for _, t in _idents(s)} | set(s.reference_names)
    known = CORE_TYPE_NAMES | ADMIT_WORDS | {p for n in names for p in name_components(n)}
    for _, t in _idents(s):
        for part in name_components(t.text):
            confusables = [c for c in part if c in CONFUSABLE_WITH_LATIN]
            if not confusables or not any("a" <= c.lower() <= "z" for c in part):
                continue
            latin = "".join(CONFUSABLE_WITH_LATIN.get(c, c) for c in part)
            if any(c not in _PLAIN_GREEK for c in confusables) or latin in known:
                yield t.start
                break
