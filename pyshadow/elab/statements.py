"""A statement and its file context, printed as a prelude-mode Lean command for the signature environment.

``lean_statement`` turns a parsed declaration (``pyshadow.syntax``) and the commands that precede it (``context``,
read by ``pyshadow.elab.context``) into binders and a type in builtin syntax (``pyshadow.elab.translate``), with
the ``variable`` binders Lean would include, the context's definitions, ``open`` lines and namespaces.
``scoped_block`` wraps one such statement so that nothing of its context reaches the next: elaborating
``axiom stmt …`` is elaborating the statement; ``def stmt : Prop := ∀ …, …`` is the statement as one proposition.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from ..syntax.ast import Declaration
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.render import render_term
from .context import Context, _print, environment_names, is_open, print_binder, read_context
from .translate import Scope, Untranslatable



@dataclass(frozen=True)
class LeanStatement:
    """The statement printed for the environment, and what its context contributed."""

    binders: tuple[str, ...]  # included `variable`s first, then the header's: `(x y : Real)`, `[Group G]`, …
    conclusion: str
    universes: tuple[str, ...]  # the context's and the declaration's, then one per `Type*`, in order
    context: Context

    def _levels(self) -> str:
        return f".{{{', '.join(self.universes)}}}" if self.universes else ""

    @property
    def axiom_command(self) -> str:
        """``axiom stmt <binders> : <type>``: elaborating it is elaborating the statement."""
        return " ".join([f"axiom stmt{self._levels()}", *self.binders, f": {self.conclusion}"])

    def proposition(self, keyword: str = "def") -> str:
        """The statement as one closed proposition ``stmt``: ``axiom stmt_sig <binders> : <type>``, then
        ``<keyword> stmt : Prop := type_of% @stmt_sig`` (src/Lean/Parser/Term.lean ``type_of%``: the type of the
        term). The binders are elaborated as a declaration's signature, exactly as the statement's own file
        elaborates them — auto-bound implicits included (src/Lean/Elab/AutoBound.lean: only a signature binds
        them; in a ``∀`` of a definition's body the same name is an unknown identifier) — and the proposition is
        the type Lean gave that signature, auto-bound binders first."""
        levels = self._levels()
        return "\n".join([" ".join([f"axiom stmt_sig{levels}", *self.binders, f": {self.conclusion}"]),
                          f"{keyword} stmt{levels} : Prop := type_of% @stmt_sig{levels}"])

    @property
    def prop_definition(self) -> str:
        """``proposition("def")``."""
        return self.proposition("def")


def lean_statement(decl: Declaration, context: str = "") -> LeanStatement:
    """``decl`` in builtin syntax, binder by binder, under its context."""
    ctx = read_context(context)
    if decl.preamble:
        raise Untranslatable(f"the preamble `{decl.preamble.strip()}`")
    if decl.type is None:
        raise Untranslatable("a declaration without a type")
    typed = frozenset(n for names in ctx.variable_names for n in names)
    universes: list[str] = []
    own: list[str] = []
    for b in decl.binders:  # a binder's type sees the names bound before it (a later one would be auto-bound)
        own.append(print_binder(b, Scope(frozenset(ctx.opens), typed), universes))
        typed |= frozenset(b.names)
    conclusion = _print(render_term(decl.type), Scope(frozenset(ctx.opens), typed), universes)
    included = _included_variables(ctx, " ".join([*own, conclusion]))
    declared = [u for u in [*ctx.universes, *decl.universes]
                if re.search(rf"\b{re.escape(u)}\b", " ".join([*included, *own, conclusion]))]
    return LeanStatement((*included, *own), conclusion, (*declared, *universes), ctx)


def _included_variables(ctx: Context, text: str) -> tuple[str, ...]:
    """The ``variable`` groups Lean includes in a theorem: those it mentions, what their types mention, and the
    instance binders over included variables (src/Lean/Elab/MutualDef.lean, variable inclusion)."""
    mentioned = set(_identifiers(text))
    names = [set(group) for group in ctx.variable_names]
    included = [bool(group & mentioned) for group in names]
    changed = True
    while changed:
        changed = False
        for i, group in enumerate(ctx.variables):
            if included[i]:
                for j, other in enumerate(names):
                    if not included[j] and other & set(_identifiers(group)):
                        included[j] = changed = True
    for i, group in enumerate(ctx.variables):
        if not names[i]:  # an anonymous instance binder `[Group G]`
            over = set(_identifiers(group))
            included[i] = any(included[j] and names[j] & over for j in range(len(names)))
    return tuple(group for group, keep in zip(ctx.variables, included) if keep)


def _identifiers(text: str) -> set[str]:
    return {t.text for t in code_tokens(text) if t.kind == IDENT}


def scoped_block(namespace: str, stmt: LeanStatement, command: str) -> tuple[str, str]:
    """``command`` with the statement's context inside ``namespace … end``, and the full name ``stmt`` gets.

    The context's own ``namespace X`` blocks enclose the wrapper (``X.<namespace>``), so that names resolve as
    in the file — inside ``namespace Real``, ``log`` is ``Real.log`` (src/Lean/ResolveName.lean tries every
    prefix of the current namespace) — while the context's definitions stay apart from the next statement's; the
    wrapper is reopened at each ``namespace``/``end`` with the ``open``s still in scope and ``open _root_.<wrapper>``
    for the definitions made outside (and ``open X`` opens ``X.<wrapper>`` too). Only Lean's strict auto-bound
    names are allowed (one letter, then digits, subscripts or primes: ``relaxedAutoImplicit false``,
    src/Lean/Elab/AutoBound.lean): with the default, a constant missing from the environment would silently
    become a variable.
    """
    ctx = stmt.context
    options = ["noncomputable section", f"set_option autoImplicit {str(ctx.auto_implicit).lower()}",
               "set_option relaxedAutoImplicit false"]
    opens: list[list[str]] = [[]]  # the `open` commands of each enclosing `namespace` level
    current: list[str] = []  # the context's namespaces open at this point
    entered: set[str] = set()  # every context namespace a wrapper was opened in
    lines = [f"namespace {namespace}", *options]
    for cmd in ctx.commands:
        if cmd.startswith("set_option "):  # the file's option lasts into every wrapper opened after it
            options.append(cmd)
        if cmd.startswith(("namespace ", "end ")):
            if cmd.startswith("namespace "):
                opens.append([])
                current.append(cmd.split()[1])
                entered.add(".".join(current))
            else:
                opens.pop()
                current.pop()
            lines += ["end", f"end {namespace}", cmd, f"namespace {namespace}", *options,
                      *(o for level in opens for o in level), f"open _root_.{namespace}"]
            continue
        if is_open(cmd):  # `open X` after `namespace X … end X` also opens the definitions made there
            cmd += "".join(f" _root_.{ns}.{namespace}" for ns in cmd.split()[1:] if ns in entered)
            opens[-1].append(cmd)
        lines.append(cmd)
    lines += [command, "end", f"end {namespace}", *(f"end {ns}" for ns in reversed(ctx.namespaces))]
    return "\n".join(lines), ".".join([*ctx.namespaces, namespace, "stmt"])


_DECLARATION = ("axiom ", "def ", "abbrev ", "noncomputable def ", "noncomputable abbrev ", "opaque ")


def _declaration(command: str) -> bool:
    """Whether a printed context command declares a constant (after the ``open X in`` that may prefix it)."""
    if command.startswith("open ") and not is_open(command):
        command = command.split("\n", 1)[1]
    return command.startswith(_DECLARATION)


def shared_declarations(reference: list[str], candidate: list[str]) -> list[str]:
    """The top-level declarations two contexts print alike *after the same commands* (a problem's `solution` both
    revisions declare, or every declaration when they are one context): one constant for both statements,
    declared once above them (``shared_block``) — as the statements' own file has it once. The same text after
    other `open`s, options or `variable`s is another constant (`sqrt x` under `open Nat` is `Nat.sqrt x`, under
    `open Real` `Real.sqrt x`) and stays in each statement's own context."""
    theirs = _top_level(candidate)
    shared = []
    for c, (others, opens) in _top_level(reference).items():
        if c in theirs and theirs[c][0] == others and _opens_agree_for(c, opens, theirs[c][1]):
            shared.append(c)
    return shared


def _walk(commands: list[str]):
    """Each command, with whether it is at the top level (a ``namespace``/``section`` line, its ``end`` and
    everything between are not)."""
    depth = 0
    for c in commands:
        if c.startswith(("namespace ", "section")):
            depth += 1
            yield c, False
        elif c.startswith("end") and depth:
            depth -= 1
            yield c, False
        else:
            yield c, depth == 0


def _top_level(commands: list[str]) -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """Each top-level declaration, with the commands other than declarations and ``open``s printed before it,
    and the namespaces opened before it."""
    before, opens, out = [], set(), {}
    for c, top in _walk(commands):
        if top and _declaration(c):
            out.setdefault(c, (tuple(before), frozenset(opens)))
        elif top and is_open(c):
            opens.update(w for w in c.split()[1:] if w != "scoped")
        else:
            before.append(c)
    return out


def _opens_agree_for(declaration: str, ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether the namespaces one side opens and the other does not leave ``declaration``'s text as it reads:
    none of them holds a constant its identifiers could name (``X.t`` for an identifier ``t``, or a namespace
    ``X.t.…``, in the environment's declaration table), and the text has no symbol a scoped notation could give
    (`π`, `n !`)."""
    differ = ours ^ theirs
    if not differ:
        return True
    if re.search(r"[^\x00-\x7f]|!", declaration):
        return False
    heads = {ident.split(".")[0] for ident in re.findall(r"[A-Za-z_][\w.']*", declaration)}
    return not {f"{x}.{head}" for x in differ for head in heads} & _declared_or_namespace()


@functools.lru_cache(maxsize=1)
def _declared_or_namespace() -> frozenset[str]:
    """Every name the environment declares, and every dotted prefix of one (``Nat.sqrt`` gives ``Nat``)."""
    out = set()
    for name in environment_names():
        parts = name.split(".")
        out.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return frozenset(out)


def _shared_prefix(commands: list[str], shared: list[str]) -> list[str]:
    """The top-level ``open``s and declarations of ``shared`` in their order, up to the last shared one."""
    out = [c for c, top in _walk(commands) if top and (is_open(c) or c in shared)]
    while out and out[-1] not in shared:
        out.pop()
    return out


def without_declarations(stmt: LeanStatement, shared: list[str]) -> LeanStatement:
    """``stmt`` whose context no longer declares ``shared`` (they come from ``shared_block``)."""
    ctx = stmt.context
    return replace(stmt, context=replace(ctx, commands=[c for c in ctx.commands if c not in shared]))


def shared_block(namespace: str, stmt: LeanStatement, shared: list[str]) -> str:
    """``shared`` declared once in ``namespace``, under ``stmt``'s opens: statements printed in namespaces inside it
    (``namespace.X``) name the same constants."""
    body = _shared_prefix(stmt.context.commands, shared)
    return "\n".join([f"namespace {namespace}", "noncomputable section", *body, "end", f"end {namespace}"])

