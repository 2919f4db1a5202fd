"""The commands before a statement, read into what its elaboration depends on.

A benchmark file's context opens namespaces, enters ``namespace``/``section`` blocks, declares ``universe`` and
``variable`` binders, sets ``autoImplicit``, and defines the helpers and answers the statement names. ``read_context``
keeps each of them in the form the elaborator needs: opens and namespaces as commands, universes as names,
variables as binder groups (included into the statement as Lean includes them), and ``def``/``abbrev`` as
definitions printed in builtin syntax — so a statement that names a helper and one that inlines it unfold to the
same proposition, and two different bodies do not. A command it does not model (``instance``, ``notation``,
``macro``, a pattern-matching ``def`` …) is ``Untranslatable`` with the command named: never left out silently.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from ..syntax import terms as tm
from ..syntax.brackets import CLOSERS, OPENERS, split_top_level
from ..syntax.lexer import IDENT, code_tokens
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.scanner import declarations
from ..syntax.render import render_term
from .translate import Scope, Untranslatable, to_lean

# Options that bound resources or only print traces (`trace.…`); the section markers (an unclosed
# `noncomputable section` is legal).
# Printing options (`pp.…`, src/Lean/PrettyPrinter/Delaborator/Options.lean) and `tactic.hygienic` (tactic blocks,
# which no printed statement holds) change no elaborated term either.
_NEUTRAL = re.compile(r"^(set_option (maxHeartbeats|maxRecDepth|synthInstance\.\w+|linter\.\w+|trace\.[\w.]+|"
                      r"pp\.[\w.]+|tactic\.hygienic) |"
                      r"(noncomputable )?section\b|end\b|import )")
_AUTO_IMPLICIT = re.compile(r"^set_option (autoImplicit|relaxedAutoImplicit) (true|false)\s*$")
# Options that change what elaborates, printed among the context's commands as the file sets them:
# `checkBinderAnnotations` (src/Lean/Elab/Binders.lean: `[x : T]` with `T` not a class) and
# `backward.isDefEq.respectTransparency` (src/Lean/Meta/Basic.lean).
_PASSED = re.compile(r"^set_option (checkBinderAnnotations|backward\.isDefEq\.respectTransparency) (true|false)\s*$")
_COMMAND_START = re.compile(r"^(@\[|/--|/-|--|[a-z#_]|[A-Z])")


@dataclass
class Context:
    """What the commands before a statement contribute to its elaboration."""

    opens: list[str] = field(default_factory=list)  # every namespace opened so far (for scoped notation)
    namespaces: list[str] = field(default_factory=list)  # `namespace A.B` still open at the statement
    commands: list[str] = field(default_factory=list)  # printed `open`/`namespace`/`end`/`def`, in file order
    universes: list[str] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)  # printed binder groups, in order
    variable_names: list[tuple[str, ...]] = field(default_factory=list)  # the names each group binds
    auto_implicit: bool = True
    root_helpers: list[str] = field(default_factory=list)  # definitions made outside every `namespace`


def commands(context: str) -> list[str]:
    """The context split into commands: a line that starts at column 0 starts one (unless the previous line ends
    in `:=`: a body written at column 0, `:=\nsorry`); block comments are dropped."""
    text = re.sub(r"/-(?!-).*?-/", "", context, flags=re.S)  # block comments (not docstrings `/--`)
    out: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace() and _COMMAND_START.match(line) and not (out and out[-1].rstrip().endswith(":=")):
            out.append(line)
        elif out:
            out[-1] += "\n" + line
        else:
            out.append(line.strip())
    return [c for c in (re.sub(r"/--.*?-/\s*", "", c, flags=re.S).strip() for c in out)
            if c and not c.startswith("--")]


def read_context(context: str) -> Context:
    ctx = Context()
    # open `section`s and `namespace`s, innermost last: (kind, name, and the lengths of ctx.opens, ctx.commands and
    # ctx.variables when it began). An `open` or a `variable` lasts to the `end` of its section or namespace
    # (src/Lean/Elab/BuiltinCommand.lean: `end` pops the scope).
    scopes: list[tuple[str, str | None, int, int, int]] = []

    def begin(kind: str, name: str | None) -> None:
        scopes.append((kind, name, len(ctx.opens), len(ctx.commands), len(ctx.variables)))

    def close(kind: str) -> None:
        _, _, opens, printed, variables = scopes.pop()
        del ctx.opens[opens:]
        del ctx.variables[variables:]
        del ctx.variable_names[variables:]
        if kind == "section":  # no `section` is printed: its `open`s and options go where it ends
            ctx.commands[printed:] = [c for c in ctx.commands[printed:]
                                      if not is_open(c) and not c.startswith("set_option ")]

    for opened, command in _open_in(commands(context)):
        # `open X in C`: X is open for C alone (src/Lean/Elab/BuiltinCommand.lean, `in`)
        if opened and command.split()[0] not in ("def", "abbrev", "noncomputable", "theorem", "lemma"):
            raise Untranslatable(f"`open … in` before the context command `{command.split()[0]}`")
        printed = len(ctx.commands)
        ctx.opens.extend(opened)
        try:
            head = command.split()[0]
            if m := _AUTO_IMPLICIT.match(command):
                if m.group(1) == "autoImplicit":
                    ctx.auto_implicit = m.group(2) == "true"
                elif m.group(2) == "true":  # every printed statement sets `relaxedAutoImplicit false`
                    raise Untranslatable(f"the context command `{command}`")
            elif _PASSED.match(command):
                ctx.commands.append(command.strip())
            elif _NEUTRAL.match(command):
                words = command.split()
                if head != "end":
                    if "section" in words:
                        after = words[words.index("section") + 1:]
                        begin("section", after[0] if after else None)
                    continue
                name = words[1] if len(words) > 1 else None
                # src/Lean/Elab/BuiltinCommand.lean `elabEnd`: `end` pops as many scopes as its name has parts
                # and is an error when the name is missing or does not match; only the exact innermost name is
                # read (`end B` after `namespace A.B`, legal in Lean, is not)
                if not scopes or scopes[-1][1] != name:
                    raise Untranslatable(f"`{command.strip()}` that does not close the innermost scope by its name")
                kind = scopes[-1][0]
                if kind == "namespace":
                    ctx.namespaces.pop()
                    ctx.commands.append(f"end {name}")
                close(kind)
            elif head == "open" and not {"in", "hiding", "renaming"} & set(command.split()):
                words = command.split()[1:]
                scoped = words[:1] == ["scoped"]
                words = words[1:] if scoped else words
                if not words or "(" in command:
                    raise Untranslatable(f"the context command `{command}`")
                ctx.opens.extend(words)  # the scoped notations (π, 𝓝, R[X]) the printer writes out
                # `open scoped X` activates X's scoped notation and instances, not its names
                ctx.commands.append(("open scoped " if scoped else "open ") + " ".join(words))
            elif head == "namespace" and len(command.split()) == 2:
                if command.split()[1].split(".")[0] in ctx.root_helpers:
                    # `def G …` then `namespace G`: printed, the helper is the wrapper's `W.G` and the block's
                    # names `G.W.x`, so `.x` at type `G` (src/Lean/Elab/App.lean `resolveDotName`) would miss them
                    raise Untranslatable(f"the namespace of the context's own definition `{command.split()[1]}`")
                ctx.namespaces.append(command.split()[1])
                begin("namespace", command.split()[1])
                ctx.commands.append(command)
            elif head == "universe":
                ctx.universes.extend(command.split()[1:])
            elif head == "variable":
                _variables(command, ctx)
            elif head in ("def", "abbrev", "noncomputable") or command.startswith(("@[reducible]", "@[simp]")):
                ctx.commands.append(_definition(command, ctx))
                if not ctx.namespaces:
                    ctx.root_helpers.append(ctx.commands[-1].split()[1])
            elif head in ("theorem", "lemma"):
                continue  # a proved helper lemma changes no statement's meaning; naming one leaves it unknown to Lean
            elif head == "instance" and unusable_instance(command):
                continue  # typeclass synthesis can never use it: no later statement elaborates differently
            else:
                raise Untranslatable(f"the context command `{head}`")
        finally:
            if opened:
                del ctx.opens[len(ctx.opens) - len(opened):]
                ctx.commands[printed:] = [f"open {' '.join(opened)} in\n{c}" for c in ctx.commands[printed:]]
    _ambiguous_helpers(ctx)
    return ctx


def is_open(command: str) -> bool:
    """Whether a printed context command is an ``open`` (not a declaration an ``open X in`` prefixes)."""
    return command.startswith("open ") and not _OPEN_IN.match(command)


_OPEN_IN = re.compile(r"^open [^\n]* in\n")


def _open_in(cmds: list[str]) -> list[tuple[list[str], str]]:
    """The commands, each with the namespaces an ``open X in`` before it opens for it alone. An ``open X in`` that
    ends the context opens X for the statement that follows it: printed as ``open X``."""
    out: list[tuple[list[str], str]] = []
    pending: list[str] = []
    for command in cmds:
        words = command.split()
        if words[0] == "open" and len(words) > 2 and words[-1] == "in" and "(" not in command:
            if words[1] == "scoped" or not {"hiding", "renaming", "in"} & set(words[1:-1]):
                pending = words[1:-1] if words[1] != "scoped" else []
                if pending:
                    continue
            raise Untranslatable(f"the context command `{command}`")
        out.append((pending, command))
        pending = []
    if pending:
        out.append(([], "open " + " ".join(pending)))
    return out


def _ambiguous_helpers(ctx: Context) -> None:
    """A root helper whose name the root or an open namespace also declares (`def abs …`: a second declaration,
    the file does not compile; `def sqrt …` and `open Real`: Lean reports the use ambiguous, checked in the
    kernel-tier Lean), while the printed context defines the helper inside the statement's wrapper namespace,
    where it would win — so such a context is not printed."""
    declared = environment_names() if ctx.root_helpers else frozenset()
    for name in ctx.root_helpers:
        clash = sorted(n for n in ["", *ctx.opens] if f"{n}.{name}".lstrip(".") in declared)
        if clash:
            raise Untranslatable(f"the helper `{name}`, which {f'`{clash[0]}`' if clash[0] else 'the root'} "
                                 "also declares")


@functools.lru_cache(maxsize=1)
def environment_names() -> frozenset[str]:
    """Every name the signature environment declares."""
    from .environment import declarations  # the environment's declaration table (read from its Lean sources)

    return frozenset(d.name for d in declarations())


# Mathlib's bundled maps and equivalences are structures, not classes (Mathlib/Logic/Equiv/Defs.lean
# `structure Equiv`, `infixl:25 " ≃ " => Equiv`; Mathlib/Algebra/Group/Equiv/Defs.lean `structure MulEquiv`,
# `infixl:25 " ≃* " => MulEquiv`, `" ≃+ " => AddEquiv`; Mathlib/Algebra/Group/Hom/Defs.lean `structure MonoidHom`,
# `infixr:25 " →* " => MonoidHom`; Mathlib/Algebra/Ring/Equiv.lean `structure RingEquiv`, `" ≃+* "`).
_STRUCTURE_INFIXES = ("≃*", "≃+*", "≃+", "≃", "→*", "→+*", "→+")


def unusable_instance(command: str) -> bool:
    """Whether typeclass synthesis can never use the ``instance``: its type is a structure (Lean 4.35 rejects it:
    "should not be an instance as its return type … is not a type class"), or one of its arguments is neither
    instance-implicit nor named in the result type or an instance-implicit argument, so synthesis cannot assign it
    (Lean 4.35: "argument … cannot be inferred using typeclass synthesis")."""
    found = declarations(command)
    if not found:
        return False
    header = found[0].header.removeprefix("instance")
    try:
        decl = parse_declaration("theorem" + (header if not header.lstrip().startswith(":") else " _i" + header))
    except ParseError:
        return False
    if decl.type is None:
        return False
    result = render_term(decl.type)
    if _top_level_infix(result) in _STRUCTURE_INFIXES:
        return True
    named = _identifiers(" ".join([result, *(render_term(b.type) for b in decl.binders
                                             if b.bracket == "[" and b.type is not None)]))
    return any(b.bracket != "[" and not set(b.names) & named for b in decl.binders)


def _top_level_infix(text: str) -> str | None:
    """The first of ``_STRUCTURE_INFIXES`` standing outside every bracket of ``text``, if any."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch in OPENERS) - (ch in CLOSERS)
        if depth == 0 and text[i - 1:i] == " ":
            for op in sorted(_STRUCTURE_INFIXES, key=len, reverse=True):
                if text.startswith(op + " ", i):
                    return op
    return None


def _identifiers(text: str) -> set[str]:
    return {t.text for t in code_tokens(text) if t.kind == IDENT}


def _scope(ctx: Context, names: tuple[str, ...] = ()) -> Scope:
    """The notation scope, and the names with a written type: the ``variable``s and ``names``."""
    return Scope(frozenset(ctx.opens), frozenset(n for group in ctx.variable_names for n in group) | set(names))


def _variables(command: str, ctx: Context) -> None:
    try:
        decl = parse_declaration("theorem _v " + command.removeprefix("variable").strip() + " : True")
    except ParseError as err:
        raise Untranslatable(f"the `variable` command ({str(err).splitlines()[0]})") from None
    for b in decl.binders:
        if b.type is None:
            for name in b.names:
                _update_binder(ctx, name, b.bracket)
            continue
        known = {n for group in ctx.variable_names for n in group}
        if b.bracket == "[" and not _identifiers(render_term(b.type)) & known:
            # `variable [Add ℕ]` is included in every later theorem, whose `+` it then is: not printed as a binder
            raise Untranslatable("an instance `variable` over no variable (Lean includes it in every theorem)")
        for name in b.names:  # a later variable of the same name shadows the earlier one
            _drop_variable(ctx, name)
        ctx.variables.append(print_binder(b, _scope(ctx), None))
        ctx.variable_names.append(b.names)


def _drop_variable(ctx: Context, name: str) -> None:
    """The earlier typed variable ``name`` out of its group (the group split around it), if there is one."""
    for j in reversed(range(len(ctx.variable_names))):
        names = ctx.variable_names[j]
        if name not in names:
            continue
        parts = _group(ctx.variables[j])
        if len(names) == 1:
            del ctx.variables[j], ctx.variable_names[j]
        elif parts is not None:
            rest = tuple(n for n in names if n != name)
            ctx.variables[j], ctx.variable_names[j] = f"{parts[0]}{' '.join(rest)} : {parts[1]}{_CLOSE[parts[0]]}", rest
        else:
            raise Untranslatable(f"a `variable` that shadows `{name}` in a group not printed by name")
        return


_CLOSE = {"(": ")", "{": "}", "⦃": "⦄", "{{": "}}"}


def _group(printed: str) -> tuple[str, str] | None:
    """A printed named binder group `(x y : T)` as its bracket and type; ``None`` for an instance binder."""
    old = next((o for o in sorted(_CLOSE, key=len, reverse=True) if printed.startswith(o)), None)
    if old is None or " : " not in printed:
        return None
    return old, printed[len(old):-len(_CLOSE[old])].split(" : ", 1)[1]


def _update_binder(ctx: Context, name: str, bracket: str) -> None:
    """``variable (R)`` after ``variable {R : Type*}``: the latest binder of ``R`` takes the new bracket in place, its
    group split around it (src/Lean/Elab/BuiltinCommand.lean, `replaceBinderAnnotation`; an update to the bracket
    the binder already has is Lean's error "redundant binder annotation update")."""
    found = [j for j, names in enumerate(ctx.variable_names) if name in names]
    if not found or bracket not in _CLOSE:
        raise Untranslatable("a `variable` binder without a type that updates no earlier one")
    j = found[-1]
    names = ctx.variable_names[j]
    parts = _group(ctx.variables[j])
    if parts is None:
        raise Untranslatable("a `variable` update of an instance binder")
    old, typ = parts
    if old == bracket:
        raise Untranslatable("a redundant `variable` binder annotation update")
    k = names.index(name)
    parts = [(names[:k], old), ((name,), bracket), (names[k + 1:], old)]
    parts = [(ns, br) for ns, br in parts if ns]
    ctx.variables[j:j + 1] = [f"{br}{' '.join(ns)} : {typ}{_CLOSE[br]}" for ns, br in parts]
    ctx.variable_names[j:j + 1] = [ns for ns, _ in parts]


def _definition(command: str, ctx: Context) -> str:
    text = re.sub(r"^@\[(reducible|simp)\]\s*", "", command)
    text = re.sub(r"^noncomputable\s+", "", text)
    keyword = text.split()[0]
    if keyword not in ("def", "abbrev"):
        raise Untranslatable(f"the context command `{keyword}`")
    found = declarations(text)
    if not found:
        raise Untranslatable("a definition the scanner does not read")
    d = found[0]
    head, body = d.header, text[d.statement_end:d.end].strip().removeprefix(":=")
    if not body.strip() or "\n|" in body or body.lstrip().startswith(("|", "match", "by", "fun |")):
        raise Untranslatable("a definition without a plain term body")
    typed = len(split_top_level(head, ":")) > 1  # a `:` outside every binder: the result type is written
    try:
        decl = parse_declaration("theorem" + head[len(keyword):] + ("" if typed else " : _"))
    except ParseError as err:
        raise Untranslatable(f"a definition header ({str(err).splitlines()[0]})") from None
    scope = _scope(ctx, decl.variables())
    binders = " ".join(print_binder(b, scope, None) for b in decl.binders)
    value = body.strip()
    if value == "sorry":  # an answer left open: an opaque constant of its type
        if decl.type is None or render_term(decl.type) == "_":
            raise Untranslatable("a definition `:= sorry` without a type")
        return f"axiom {decl.name} {binders} : {_print(render_term(decl.type), scope)}"
    typ = render_term(decl.type) if decl.type is not None else "_"
    typ_text = "" if typ == "_" else f" : {_print(typ, scope)}"
    # `abbrev` (and `@[reducible] def`) unfolds at reducible transparency — where instance synthesis sees through it
    # (src/Lean/Elab/Declaration.lean: `abbrev` is `@[reducible, inline] def`)
    printed = "abbrev" if keyword == "abbrev" or command.startswith("@[reducible]") else "def"
    return f"{printed} {decl.name} {binders}{typ_text} := {_print(value, scope)}"


# The term reader names the bound variables of a read (canonical) statement `x✝1`, `x✝2`, … (syntax/terms.py): an
# inaccessible name Lean prints but does not parse. They are printed as `x_read1` — the spelling
# ``kernel.lean_check`` gives the `✝` of binder names — so the read statement is a term Lean reads.
_READ_NAME = re.compile(r"(?<![\w.])([^\W\d]\w*)✝(\d+|η)(?![\w✝])")


def read_names(text: str) -> str:
    """``text`` with the term reader's inaccessible bound names (`x✝1`) as identifiers Lean parses (`x_read1`)."""
    return _READ_NAME.sub(r"\1_read\2", text) if "✝" in text else text


def _print(text: str, scope: Scope, universes: list[str] | None = None) -> str:
    node = tm.read_term(read_names(text))
    if node is None or isinstance(node, tm.Opaque):
        raise Untranslatable(f"text the term reader does not structure: `{text[:60]}`")
    return to_lean(node, scope, universes)


def print_binder(b, scope: Scope, universes: list[str] | None) -> str:
    """One header binder group in builtin syntax."""
    if b.default is not None or b.bound is not None:
        raise Untranslatable("a binder with a default value or a bound")
    if b.type is None:
        raise Untranslatable("an untyped header binder")
    body = _print(render_term(b.type), scope, universes)
    names = read_names(" ".join(b.names))
    if b.bracket == "[":
        return f"[{names} : {body}]" if names else f"[{body}]"
    close = {"(": ")", "{": "}", "⦃": "⦄", "{{": "}}"}.get(b.bracket)
    if close is None or not names:
        raise Untranslatable(f"the binder bracket `{b.bracket}`")
    return f"{b.bracket}{names} : {body}{close}"
