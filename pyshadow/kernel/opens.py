"""Which namespaces are open at a statement, as Lean scopes them — what a short name (``sqrt``) or a scoped
notation (``π``) can mean there (``kernel/atoms.py`` resolves names against these; ``local_definitions.py`` decides
which spellings of a helper reach the statement), and which of its commands the kernel does not read at all.

An ``open`` lasts to the ``end`` of its section or namespace, ``open … in`` covers the one command that follows it,
``namespace A.B`` opens ``A.B`` and ``A`` until its ``end`` (leanprover/lean4 src/Lean/Elab/BuiltinCommand.lean:
``open``, ``section``, ``namespace``, ``end``; src/Lean/Elab/Open.lean for ``hiding``/``renaming``/explicit lists).
"""

from __future__ import annotations

import functools
import hashlib
import re

from ..elab.context import commands, environment_names, unusable_instance
from ..syntax import lexer as lx
from ..syntax.ast import Atom
from ..syntax.scanner import name_components
from .short_names import SHORT_NAMES

# Marks on an `opens` entry: `open scoped N` opens N's scoped notation only (not its names); `open N hiding x`,
# `open N (x)`, `open N renaming x → y` open only some of N's names — a short name N defines is then not resolved
# through N here (it is keyed with the marks instead: never read as another constant).
SCOPED, PARTIAL = "⟨scoped⟩", "⟨partial⟩"
_PREAMBLE_OPEN = re.compile(r"\bopen\s+([^\n]*?)\s+in\b")


_SCOPE_COMMAND = re.compile(r"^\s*(open|namespace|section|noncomputable\s+section|end|variable|include)(\s|$)")


def scope_commands(context: str) -> list[str]:
    """The context's commands (``elab.context.commands``), an indented ``open``/``namespace``/``section``/``end``/
    ``variable``/``include`` line a command of its own (``namespace Foo`` then ``  open Real`` is two commands)."""
    out: list[str] = []
    for command in commands(context or ""):
        lines = command.split("\n")
        out.append(lines[0])
        for line in lines[1:]:
            if _SCOPE_COMMAND.match(line):
                out.append(line.strip())
            else:
                out[-1] += "\n" + line
    return out


@functools.lru_cache(maxsize=4096)
def opened_namespaces(context: str, preamble: str | None = None) -> frozenset[str]:
    """Namespaces open at the end of ``context`` (and by an ``open … in`` preamble), as Lean scopes them
    (src/Lean/Elab/BuiltinCommand.lean ``open``, ``section``/``namespace``/``end``): an ``open`` lasts to the ``end``
    of its section or namespace, ``open … in`` covers the one command that follows it (so a context's own ``open
    … in`` before a helper does not reach the statement), ``namespace N`` opens ``N`` until its ``end``;
    ``open scoped N`` and partial opens are marked (``SCOPED``, ``PARTIAL``)."""
    cmds = scope_commands(context)
    out = set(_opens_at(cmds)[-1][0])
    if cmds and cmds[-1].split()[0] == "open" and re.search(r"\bin\s*$", cmds[-1]):
        out |= _open_entries(cmds[-1])[0]  # `open N in` as the context's last command: it covers the statement
    for m in _PREAMBLE_OPEN.finditer(preamble or ""):
        out |= _open_entries(f"open {m.group(1)}")[0]
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def in_namespace(context: str) -> bool:
    """Whether the context ends inside a `namespace` block (a statement there is declared in that namespace)."""
    return bool(_opens_at(scope_commands(context))[-1][1])


def _opens_at(cmds: list[str]) -> list[tuple[frozenset[str], frozenset[str]]]:
    """For each command, the namespaces open where it runs (its own `open … in` and the previous line's included)
    and those of them the enclosing `namespace` blocks open; last, the same after every command."""
    scopes: list[set[str]] = [set()]
    blocks: list[set[str]] = [set()]  # what each scope's `namespace` opens (empty for a section or the file)
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    covering: set[str] = set()  # a previous command `open N in` covers this one
    for command in cmds:
        words = command.split()
        if words[:2] == ["noncomputable", "section"]:
            words = words[1:]
        head = words[0]
        own = _open_entries(command)[0] if head == "open" and re.search(r"\bin\s+\S", command) else set()
        out.append((frozenset(set().union(*scopes) | covering | own), frozenset(set().union(*blocks))))
        covering = set()
        if head == "open":
            names, is_in = _open_entries(command)
            if not is_in:
                scopes[-1] |= names
            elif re.search(r"\bin\s*$", command):
                covering = names
        elif head == "namespace" and len(words) >= 2:  # `namespace A.B` resolves names in A.B and in A
            parts = words[1].split(".")
            scopes.append({".".join(parts[:k]) for k in range(1, len(parts) + 1)})
            blocks.append(set(scopes[-1]))
        elif head == "section":
            scopes.append(set())
            blocks.append(set())
        elif head == "end" and len(scopes) > 1:
            scopes.pop()
            blocks.pop()
    out.append((frozenset(set().union(*scopes)), frozenset(set().union(*blocks))))
    return out


def _open_entries(command: str) -> tuple[set[str], bool]:
    """The entries one ``open`` command adds (marked as ``SCOPED``/``PARTIAL`` say), and whether it is
    ``open … in``."""
    parts = command.split(None, 1)
    words = (parts[1] if len(parts) > 1 else "").replace("(", " ( ").split()
    is_in = "in" in words
    if is_in:
        words = words[:words.index("in")]
    mark = ""
    if words[:1] == ["scoped"]:
        words, mark = words[1:], SCOPED
    for stop in ("hiding", "renaming", "("):
        if stop in words:
            words, mark = words[:words.index(stop)], PARTIAL
    return {w + mark for w in words if w and w[0].isalpha()}, is_in


def named_definitions(a: Atom, table: dict) -> set[str]:
    """The definitions of ``table`` an atom names: by a root (``g m``, ``S.ncard``) or a qualified name
    (``Foo.g m``, whose root ``Foo`` is no definition)."""
    out = set(a.idents) & set(table)
    for ident in (t.text for t in lx.code_tokens(a.text) if t.kind == lx.IDENT) if "." in a.text else ():
        parts = name_components(ident)
        out.update(p for p in (".".join(parts[:k]) for k in range(2, len(parts) + 1)) if p in table)
    return out


def visible_spellings(table: dict, names: list[str], opens: frozenset[str], declaration: str | None) -> dict:
    """``table`` (helpers by every spelling, ``local_definitions._table``; ``names``: their full names) without
    the short spellings that do not resolve at the statement: ``g`` names ``Foo.g`` only inside ``namespace Foo``,
    under ``open Foo`` or in a declaration ``Foo.t`` (Lean's name resolution; after ``end Foo`` a bare ``g`` is
    another name — an auto-bound variable or unknown)."""
    scopes = set(opens) | {".".join(name_components(declaration)[:k])
                           for k in range(1, len(name_components(declaration)))} if declaration else set(opens)
    allowed = set()
    for name in names:
        parts = name_components(name)
        allowed.add(name)
        allowed.update(".".join(parts[k:]) for k in range(1, len(parts)) if ".".join(parts[:k]) in scopes)
    return {k: u for k, u in table.items() if k in allowed}


# Commands the kernel reads (scopes, `variable`s, universes, helper definitions: ``local_definitions``,
# ``context_variables``) or that change no later statement's elaboration (a proved lemma, an option, `#check`).
_READ_COMMAND = re.compile(r"^(?:@\[(?:simp|reducible)\]\s*)?(?:(?:private|protected|noncomputable)\s+)*"
                           r"(?:open|namespace|section|end|variable|include|universe|def|abbrev|theorem|lemma|"
                           r"example|set_option|import|#\w+)(?:\s|$)")
_SIMP_ATTRIBUTE = re.compile(r"^attribute\s+\[\s*simp\s*\]")


_PROTECTED_DEFINITION = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:(?:private|noncomputable)\s+)*protected\s+(?:"
                                   r"(?:private|noncomputable)\s+)*(?:def|abbrev)\s")
_DEFINITION = re.compile(r"^(?:@\[(?:simp|reducible)\]\s*)?(?:noncomputable\s+)?(?:def|abbrev)\s+(\S+)")


def _read_command(command: str) -> bool:
    m = re.match(r"^open\b[^\n]*?\sin\s+(?=\S)", command)  # `open Real in instance …`: the command it covers
    if m:
        return _read_command(command[m.end():])
    if command.startswith("instance") and unusable_instance(command):
        return True  # typeclass synthesis can never use it (`… : A × B ≃* B × A`, a structure)
    return bool(_READ_COMMAND.match(command) or _SIMP_ATTRIBUTE.match(command))


def _read_definition(command: str, at: tuple[frozenset[str], frozenset[str]],
                     final: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether a helper's body, unfolded into the statement (``local_definitions``), names what it named where it
    was defined — the namespaces open there are those open at the statement, but for the namespaces the helper sits
    in (its own helpers, which ``visible_spellings`` resolves); `open Nat in def g … := sqrt n` is Nat.sqrt there
    and no constant at a statement without `open Nat` — and whether the statement's use of it names it alone."""
    command = re.sub(r"^open\b[^\n]*?\sin\s+(?=\S)", "", command)
    if _PROTECTED_DEFINITION.match(command):
        return False  # `open Foo` does not make its short name name it (`visible_spellings` would)
    m = _DEFINITION.match(command)
    if m is None:
        return True
    parts = name_components(m.group(1))
    own = {".".join(parts[:k]) for k in range(1, len(parts))} | at[1] | final[1]
    if (at[0] ^ final[0]) - own:
        return False
    return not (len(parts) == 1 and not at[1] and _declared_in(parts[0], final[0]))


def _declared_in(name: str, opens: frozenset[str]) -> bool:
    """Whether Mathlib declares ``name`` at the root or in an open namespace (as the kernel's name table or the
    signature environment knows it): a root helper of that name is then a second declaration (`def abs …`:
    "already declared", the file does not compile) or ambiguous in Lean (`def sqrt …` under `open Real`: "Ambiguous
    term"), never the helper alone."""

    full = {"", *(n for n in opens if "⟨" not in n)}
    owners = SHORT_NAMES.get(name, frozenset())
    return bool(full & owners or {f"{n}.{name}".lstrip(".") for n in full} & environment_names())


@functools.lru_cache(maxsize=4096)
def unread_context(context: str, statement: str = "") -> str | None:
    """A digest of the whole context when it has a command the kernel does not read — a `notation`, `macro_rules`,
    `instance`, `attribute [instance]`, `export`, `omit`, `structure`, `axiom` … may change what a later statement's
    symbols mean (a candidate's own `instance : Add ℕ := ⟨Nat.mul⟩` makes its `+` multiplication; a notation's names
    resolve where it is used, so a later `def` changes it too), so the statement is read the same only beside the
    same context; ``None`` when every command is read. A notation whose tokens neither ``statement`` nor a later
    command writes changes nothing the statement says (it is the trust audit's to flag)."""
    cmds = scope_commands(context)
    opens = _opens_at(cmds)
    for k, (c, at) in enumerate(zip(cmds, opens)):
        if _read_command(c) and _read_definition(c, at, opens[-1]):
            continue
        if not _unused_notation(c, "\n".join([*cmds[k + 1:], statement])):
            return hashlib.sha1("\n".join(" ".join(c.split()) for c in cmds).encode()).hexdigest()[:12]
    return None


_NOTATION = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:(?:local|scoped)\s+)?(?:notation3?|infixl|infixr|infix|prefix|postfix)"
                       r"(?::\w+)?\s")


def _unused_notation(command: str, after: str) -> bool:
    """Whether ``command`` is a notation none of whose tokens (its quoted strings) ``after`` contains."""
    if not _NOTATION.match(command):
        return False
    tokens = [t.strip() for t in re.findall(r'"((?:[^"\\]|\\.)*)"', command) if t.strip()]
    return bool(tokens) and not any(t in after for t in tokens)
