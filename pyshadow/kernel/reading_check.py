"""Lean proves a statement as written equivalent to the statement as read, where the reading substitutes.

The search reads a variable that a hypothesis fixes (``(x : ℝ) (h₀ : x = t)``) as its value: ``t`` stands for
``x`` everywhere and ``x``, ``h₀`` leave the header (``pyshadow.kernel.definitions.normalize_declaration``). A term
Lean accepts against the read statements then says nothing about the written ones unless that reading is Lean's
too. Here it is: the substitutions are replayed one variable at a time, and for each step Lean is asked for

    theorem step : Iff W.stmt W'.stmt :=
      Iff.intro (fun hW => fun <W' binders> => hW <x := (t : T)> <h := rfl> …)
                (fun hR => fun <W binders through h> => Eq.rec (motive := fun x _ => <rest of W>) (hR …) (Eq.symm h))

and last ``Iff Wₙ.stmt R.stmt := Iff.intro id id`` against the read statement (definitionally the same). The
value is substituted with its variable's type as an ascription, so a cast or numeral in ``t`` elaborates as it did
beside ``x``. Only headers of explicit binders are replayed, and only substitutions whose variable no binder
between it and its equation mentions; anything else is no certificate (the pass stays *unchecked*, never a pass
it was not). Every step is the kernel's to accept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..elab.context import _print, read_context
from ..elab.elaborate import BATCH_TIMEOUT_S, run_blocks
from ..elab.statements import lean_statement, scoped_block
from ..elab.translate import Scope, Untranslatable
from ..errors import PyshadowError
from ..syntax.ast import Atom, Binder, Declaration, Rel, is_proposition
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_declaration, render_term
from .substitution import Skip, idents, subst, subst_binder


@dataclass(frozen=True)
class Step:
    before: Declaration
    after: Declaration
    variable: int  # index of the substituted variable's binder in ``before``
    equation: int  # index of its equation
    value: str  # ``(t : T)``, as substituted


def _flat(decl: Declaration) -> Declaration | None:
    """``decl`` with one name per binder, or ``None`` when a binder is not an explicit ``(…)`` one."""
    out: list[Binder] = []
    for b in decl.binders:
        if b.bracket != "(" or not b.names or b.type is None or b.default is not None or b.bound is not None:
            return None
        out.extend(replace(b, names=(n,)) for n in b.names)
    return replace(decl, binders=tuple(out))


def _one_step(decl: Declaration) -> Step | None:
    bs = decl.binders
    position = {b.names[0]: i for i, b in enumerate(bs)}
    for j, h in enumerate(bs):
        if not (is_proposition(h) and isinstance(h.type, Rel) and h.type.op == "="
                and isinstance(h.type.left, Atom)):
            continue
        x = h.type.left.text.strip()
        i = position.get(x)
        if i is None or i >= j or is_proposition(bs[i]):
            continue
        t = h.type.right
        free = idents(t)
        if x in free or any(x in idents(b.type) for b in bs[i + 1:j]):
            continue
        value_text = f"({render_term(t)} : {render_term(bs[i].type)})"
        try:
            value = parse_declaration(f"theorem _v : {value_text}").type
            rest = tuple(subst_binder(b, x, value, free) for b in bs[j + 1:])
            body = subst(decl.type, x, value, free)
        except (Skip, ParseError):
            continue
        after = replace(decl, binders=bs[:i] + bs[i + 1:j] + rest, type=body)
        return Step(decl, after, i, j, value_text)
    return None


def substitution_steps(decl: Declaration) -> list[Step] | None:
    """The substitutions that read ``decl``, one variable each, in order; ``None`` when its header is not one
    this replays."""
    cur = _flat(decl)
    if cur is None:
        return None
    steps: list[Step] = []
    while (step := _one_step(cur)) is not None and len(steps) < 20:
        steps.append(step)
        cur = step.after
    return steps


def _names(decl: Declaration) -> list[str]:
    return [b.names[0] for b in decl.binders]


def _step_blocks(tag: str, step: Step, context: str) -> list[str]:
    w = lean_statement(step.before, context)
    w2 = lean_statement(step.after, context)
    tail = lean_statement(replace(step.before, binders=step.before.binders[step.equation + 1:]), context)
    wb, wn = scoped_block(f"{tag}.W", w, "abbrev" + w.prop_definition[len("def"):])
    rb, rn = scoped_block(f"{tag}.V", w2, "abbrev" + w2.prop_definition[len("def"):])
    names = _names(step.before)
    x, h = names[step.variable], names[step.equation]
    value = f"({_print(step.value, Scope(frozenset(read_context(context).opens)))})"
    args = [value if k == step.variable else "rfl" if k == step.equation else n for k, n in enumerate(names)]
    after = " ".join(_names(step.after))
    mp = f"fun hW => fun {after} => hW {' '.join(args)}" if after else f"fun hW => hW {' '.join(args)}"
    kept = [n for k, n in enumerate(names[:step.equation]) if k != step.variable]
    rest = ", ".join([*(f"∀ {b}" for b in tail.binders), tail.conclusion])
    applied = f"(hR {' '.join(kept)})" if kept else "hR"
    mpr = (f"fun hR => fun {' '.join(names[:step.equation + 1])} => "
           f"Eq.rec (motive := fun {x} _ => {rest}) {applied} (Eq.symm {h})")
    return [wb, rb, f"theorem {tag}.same : Iff {wn} {rn} :=\n  Iff.intro ({mp}) ({mpr})"]


def reading_blocks(tag: str, written: Declaration, read: Declaration, context: str) -> list[str] | None:
    """Lean blocks proving ``written`` ⇔ ``read`` through its substitutions, or ``None`` when this cannot be
    stated (a header this does not replay, a text not printed for Lean)."""
    try:
        steps = substitution_steps(written)
        if not steps:
            return None
        steps = [replace(s, before=plain(s.before), after=plain(s.after)) for s in steps]
        read = plain(read)
        blocks = []
        for k, step in enumerate(steps):
            blocks.extend(_step_blocks(f"{tag}.s{k}", step, context))
        last = lean_statement(steps[-1].after, context)
        target = lean_statement(read, context)
        lb, ln = scoped_block(f"{tag}.L", last, "abbrev" + last.prop_definition[len("def"):])
        tb, tn = scoped_block(f"{tag}.T", target, "abbrev" + target.prop_definition[len("def"):])
        blocks += [lb, tb, f"theorem {tag}.read : Iff {ln} {tn} := Iff.intro (fun h => h) (fun h => h)"]
    except (Untranslatable, ParseError):
        return None
    return blocks


def plain(decl: Declaration) -> Declaration:
    """``decl`` with the search's bound names ``x✝1`` (which Lean's parser does not accept) as ``x_read1``."""
    return parse_declaration(render_declaration(decl).replace("✝", "_read"))


def readings_proved(items: Sequence[tuple[str, Declaration, Declaration, str]], lean, *,
                    timeout_s: float = BATCH_TIMEOUT_S) -> dict[str, bool]:
    """For each ``(key, written, read, context)``: whether Lean proves ``written`` ⇔ ``read`` (one process)."""
    blocks: list[tuple[int, str]] = []
    owner: dict[int, str] = {}
    out: dict[str, bool] = {}
    for n, (key, written, read, context) in enumerate(items):
        texts = reading_blocks(f"RC{n}", written, read, context)
        if texts is None:
            out[key] = False
            continue
        for text in texts:
            owner[len(blocks)] = key
            blocks.append((len(blocks), text))
        out[key] = True
    if not blocks:
        return out
    try:
        result, errors = run_blocks(blocks, lean, timeout_s=timeout_s)
    except PyshadowError:
        return {key: False for key in out}
    if result.status != "ok":
        return {key: False for key in out}
    for index in errors:
        out[owner[index]] = False
    return out
