"""A statement and its file context, printed as a prelude-mode Lean command for the signature environment.

``lean_statement`` turns a parsed declaration (``pyshadow.syntax``) and the commands that precede it (``context``:
``open``, ``set_option``, sections) into an ``axiom`` with the same binders and type, printed as builtin syntax
(``pyshadow.elab.translate``): elaborating that axiom is elaborating the statement. Context commands it does not
model (``variable``, a ``def`` of the file, ``notation``, …) make it ``Untranslatable`` with the reason — the
elaborator is never handed a statement whose meaning depends on something left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..syntax import terms as tm
from ..syntax.ast import Binder, Declaration
from ..syntax.render import render_term
from .translate import Scope, Untranslatable, to_lean

# Context commands that change no statement's meaning here: comments, options that only bound resources,
# section markers (an unclosed `noncomputable section` is legal, src/Lean/Elab/Command.lean).
_NEUTRAL_PREFIXES = ("set_option maxHeartbeats", "set_option maxRecDepth", "noncomputable section", "section",
                     "end", "--", "/-", "import ")
# Lean's default (src/Lean/Elab/AutoBound.lean `autoImplicit`, default true); a file may set it either way.
_AUTO_IMPLICIT_OPTIONS = {"set_option autoImplicit true": True, "set_option autoImplicit false": False}


@dataclass(frozen=True)
class LeanStatement:
    """The statement printed for the environment, and what its context contributed."""

    binders: tuple[str, ...]  # `(x y : Real)`, `[Group G]`, `{α : Type u_1}`
    conclusion: str
    universes: tuple[str, ...]  # one per `Type*`, in order of occurrence; plus the declaration's own
    opens: tuple[str, ...]
    auto_implicit: bool

    def _levels(self) -> str:
        return f".{{{', '.join(self.universes)}}}" if self.universes else ""

    @property
    def axiom_command(self) -> str:
        """``axiom stmt <binders> : <type>``: elaborating it is elaborating the statement."""
        return " ".join([f"axiom stmt{self._levels()}", *self.binders, f": {self.conclusion}"])

    @property
    def prop_definition(self) -> str:
        """``def stmt : Prop := ∀ <binders>, <type>``: the statement as one closed proposition."""
        body = ", ".join([*(f"∀ {b}" for b in self.binders), self.conclusion])
        return f"def stmt{self._levels()} : Prop := {body}"


def read_context(context: str) -> tuple[tuple[str, ...], bool]:
    """The namespaces a context opens and its ``autoImplicit`` setting; ``Untranslatable`` for anything else."""
    opens: list[str] = []
    auto_implicit = True
    in_comment = False
    for raw in context.splitlines():
        line = raw.strip()
        if in_comment:
            in_comment = "-/" not in line
            continue
        if not line:
            continue
        if line in _AUTO_IMPLICIT_OPTIONS:
            auto_implicit = _AUTO_IMPLICIT_OPTIONS[line]
        elif line.startswith("open ") and " in" not in f" {line} ".replace(" in ", " in\0"):
            words = line.split()[1:]
            if words and words[0] == "scoped":
                words = words[1:]
            if not words or any(not w.replace(".", "").replace("_", "").isalnum() for w in words):
                raise Untranslatable(f"the context command `{line}`")
            opens.extend(words)
        elif line.startswith(_NEUTRAL_PREFIXES):
            in_comment = line.startswith("/-") and "-/" not in line
        else:
            raise Untranslatable(f"the context command `{line.split()[0]}`")
    return tuple(opens), auto_implicit


def lean_statement(decl: Declaration, context: str = "") -> LeanStatement:
    """``decl`` in builtin syntax, binder by binder."""
    opens, auto_implicit = read_context(context)
    if decl.preamble:
        raise Untranslatable(f"the preamble `{decl.preamble.strip()}`")
    if decl.type is None:
        raise Untranslatable("a declaration without a type")
    scope = Scope(frozenset(opens))
    universes: list[str] = list(decl.universes)
    binders = tuple(_binder(b, scope, universes) for b in decl.binders)
    conclusion = _term(render_term(decl.type), scope, universes)
    return LeanStatement(binders, conclusion, tuple(universes), opens, auto_implicit)


def _binder(b: Binder, scope: Scope, universes: list[str]) -> str:
    if b.default is not None or b.bound is not None:
        raise Untranslatable("a binder with a default value or a bound")
    if b.type is None:
        raise Untranslatable("an untyped header binder")
    body = _term(render_term(b.type), scope, universes)
    names = " ".join(b.names)
    if b.bracket == "[":
        return f"[{names} : {body}]" if names else f"[{body}]"
    close = {"(": ")", "{": "}", "⦃": "⦄", "{{": "}}"}.get(b.bracket)
    if close is None or not names:
        raise Untranslatable(f"the binder bracket `{b.bracket}`")
    return f"{b.bracket}{names} : {body}{close}"


def _term(text: str, scope: Scope, universes: list[str]) -> str:
    node = tm.read_term(text)
    if node is None or isinstance(node, tm.Opaque):
        raise Untranslatable(f"text the term reader does not structure: `{text[:60]}`")
    return to_lean(node, scope, universes)


def scoped_block(namespace: str, stmt: LeanStatement, command: str) -> str:
    """``command`` inside ``namespace … end`` with the statement's own options and ``open`` lines, so nothing of
    its context reaches the next block. Only Lean's strict auto-bound names are allowed (one letter, then digits,
    subscripts or primes: ``relaxedAutoImplicit false``, src/Lean/Elab/AutoBound.lean): with the default a
    constant missing from the environment would silently become a variable."""
    lines = [f"namespace {namespace}", f"set_option autoImplicit {str(stmt.auto_implicit).lower()}",
             "set_option relaxedAutoImplicit false", *(f"open {name}" for name in stmt.opens), command,
             f"end {namespace}"]
    return "\n".join(lines)
