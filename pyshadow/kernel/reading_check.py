"""Lean proves a statement as written equivalent to the statement as read, where the reading substitutes or unfolds.

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
it was not). Every step is the kernel's to accept. A reading with no substitution to replay (the context's
definitions unfolded, an answer `sol` read as its value) is the last step alone: the two statements must be
definitionally equal in the statement's own context, where those definitions are Lean's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..elab.context import _print, is_open, read_context
from ..elab.elaborate import BATCH_TIMEOUT_S, processes, run_block_chunks
from ..elab.statements import (lean_statement, scoped_block, shared_block, shared_declarations,
                               without_declarations)
from ..elab.translate import Scope, Untranslatable
from ..errors import PyshadowError
from ..syntax.ast import Atom, Binder, BinOp, Declaration, Quant, Rel, is_proposition
from ..syntax.parser import ParseError, parse_declaration
from ..syntax.render import render_declaration, render_term
from .substitution import Skip, idents, subst, subst_binder


@dataclass(frozen=True)
class Step:
    before: Declaration
    after: Declaration
    variable: int  # index of the substituted variable's binder in ``before``
    equation: int  # index of its hypothesis
    value: str  # the value substituted, with its variable's type: ``(t : T)``, ``(fun x => e : A → B)``, ``({n | p} : Set A)``
    equality: str  # a term of ``x = value`` over the hypothesis (``{h}`` stands for its name)
    proof: str  # a term of the hypothesis with ``value`` for ``x`` (``rfl``, ``fun x => rfl``, …)


_SAME = "Iff.intro (fun q => q) (fun q => q)"


def _flat(decl: Declaration) -> Declaration | None:
    """``decl`` with one name per binder (an anonymous ``_`` named), or ``None`` when a binder is not an explicit
    ``(…)`` one."""
    out: list[Binder] = []
    taken = {n for b in decl.binders for n in b.names}
    for b in decl.binders:
        if b.bracket != "(" or not b.names or b.type is None or b.default is not None or b.bound is not None:
            return None
        for n in b.names:
            if n == "_":
                n = next(f"pyshadowH{k}" for k in range(len(taken) + 1) if f"pyshadowH{k}" not in taken)
                taken.add(n)
            out.append(replace(b, names=(n,)))
    return replace(decl, binders=tuple(out))


def _definitions(h: Binder):
    """What hypothesis ``h`` defines: ``(variable, value text without type, equality, proof, the value's own
    bound names)`` candidates — ``x = t`` / ``t = x``, ``p ↔ e`` / ``e ↔ p`` (a proposition), ``∀ xs, f xs = e`` /
    ``↔ e`` (a function), ``∀ n, n ∈ S ↔ p`` (a set)."""
    t = h.type
    if isinstance(t, Rel) and t.op == "=":
        if isinstance(t.left, Atom):
            yield t.left.text.strip(), t.right, render_term(t.right), "{h}", "rfl", ()
        if isinstance(t.right, Atom):
            yield t.right.text.strip(), t.left, render_term(t.left), "(Eq.symm {h})", "rfl", ()
        return
    if isinstance(t, BinOp) and t.op == "↔":  # a variable of type `Prop` fixed by `p ↔ e` (`propext`)
        if isinstance(t.left, Atom):
            yield t.left.text.strip(), t.right, render_term(t.right), "(propext {h})", _SAME, ()
        if isinstance(t.right, Atom):
            yield t.right.text.strip(), t.left, render_term(t.left), "(Eq.symm (propext {h}))", _SAME, ()
        return
    if not (isinstance(t, Quant) and t.kind == "∀" and all(b.bound is None for b in t.binders)):
        return
    xs = [n for b in t.binders for n in b.names]
    lam = " ".join(f"({n} : {render_term(b.type)})" if b.type is not None else n for b in t.binders for n in b.names)
    body = t.body
    if isinstance(body, (Rel, BinOp)) and body.op in ("=", "↔") and isinstance(body.left, Atom):
        head, *args = body.left.text.split()
        if args == xs and all(a.isidentifier() for a in args):
            if body.op == "=":
                eq = "".join(f"funext fun {x} => " for x in xs) + "{h} " + " ".join(xs)
                proof = f"fun {' '.join(xs)} => rfl"
            else:
                eq = "".join(f"funext fun {x} => " for x in xs) + "propext ({h} " + " ".join(xs) + ")"
                proof = f"fun {' '.join(xs)} => {_SAME}"
            yield head, body.right, f"fun {lam} => {render_term(body.right)}", f"({eq})", proof, tuple(xs)
    if (len(xs) == 1 and isinstance(body, BinOp) and body.op == "↔" and isinstance(body.left, Rel)
            and body.left.op == "∈" and isinstance(body.left.left, Atom) and body.left.left.text.strip() == xs[0]
            and isinstance(body.left.right, Atom)):
        binder = t.binders[0]
        typed = f"{xs[0]} : {render_term(binder.type)}" if binder.type is not None else xs[0]
        yield (body.left.right.text.strip(), body.right, f"{{{typed} | {render_term(body.right)}}}", "(Set.ext {h})",
               f"fun {xs[0]} => {_SAME}", (xs[0],))


def _one_step(decl: Declaration) -> Step | None:
    bs = decl.binders
    position = {b.names[0]: i for i, b in enumerate(bs)}
    for j, h in enumerate(bs):
        if not is_proposition(h):
            continue
        for x, defining, value_body, equality, proof, own in _definitions(h):
            i = position.get(x)
            if i is None or i >= j or is_proposition(bs[i]):
                continue
            free = idents(defining) - set(own)  # a function's parameters are bound in its value: never captured
            between = {b.names[0] for b in bs[i + 1:j]}
            if x in free or free & between:  # the value is over the binders before the variable only
                continue
            value_text = f"({value_body} : {render_term(bs[i].type)})"
            try:
                value = parse_declaration(f"theorem _v : {value_text}").type
                rest = tuple(subst_binder(b, x, value, free) for b in bs[i + 1:j] + bs[j + 1:])
                body = subst(decl.type, x, value, free)
            except (Skip, ParseError):
                continue
            after = replace(decl, binders=bs[:i] + rest, type=body)
            return Step(decl, after, i, j, value_text, equality, proof)
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


def _statement_block(tag: str, decl: Declaration, context: str, shared: Sequence[str] = ()) -> tuple[str, str]:
    stmt = without_declarations(lean_statement(decl, context), list(shared))
    return scoped_block(tag, stmt, stmt.proposition("abbrev"))


def _step_blocks(tag: str, step: Step, context: str, wn: str, rn: str) -> list[str]:
    """The step's ``Iff`` between the statements named ``wn`` (before) and ``rn`` (after)."""
    bs = step.before.binders
    tail_binders = bs[step.variable + 1:step.equation] + bs[step.equation + 1:]
    tail = lean_statement(replace(step.before, binders=tail_binders), context)
    names = _names(step.before)
    x, h = names[step.variable], names[step.equation]
    scope = Scope(frozenset(read_context(context).opens))
    value = f"({_print(step.value, scope)})"
    args = [value if k == step.variable else f"({step.proof})" if k == step.equation else n
            for k, n in enumerate(names)]
    after = " ".join(_names(step.after))
    mp = f"fun hW => fun {after} => hW {' '.join(args)}" if after else f"fun hW => hW {' '.join(args)}"
    before = names[:step.variable]
    rest = ", ".join([*(f"∀ {b}" for b in tail.binders), tail.conclusion])
    applied = f"(hR {' '.join(before)})" if before else "hR"
    along = f"(Eq.symm ({step.equality.format(h=h)} : Eq {x} {value}))"
    moved = " ".join(n for k, n in enumerate(names) if k > step.variable and k != step.equation)
    typ = _print(render_term(bs[step.variable].type), scope)
    transport = f"(Eq.rec (motive := fun ({x} : {typ}) _ => {rest}) {applied} {along} : {rest})"
    mpr = f"fun hR => fun {' '.join(names)} => {transport} {moved}".rstrip()
    # the step's terms name the context's constants as the statement does: under its opens
    opens = [c for c in tail.context.commands if is_open(c)]
    theorem = f"theorem {tag}.same : Iff {wn} {rn} :=\n  Iff.intro ({mp}) ({mpr})"
    return ["\n".join(["section", *opens, theorem, "end"]) if opens else theorem]


def reading_blocks(tag: str, written: Declaration, read: Declaration, context: str) -> list[str] | None:
    """Lean blocks proving ``written`` ⇔ ``read`` through its substitutions, then definitionally (so a reading
    that only unfolds the context's definitions needs no step), or ``None`` when a text is not printed for Lean."""
    try:
        # no substitution to replay: the reading must be definitional (a definition of the context unfolded)
        steps = substitution_steps(written) or []
        steps = [replace(s, before=plain(s.before), after=plain(s.after)) for s in steps]
        read = plain(read)
        start = steps[0].before if steps else plain(written)
        # the context's declarations once (an answer's slot is one constant for every statement), above them all
        first = lean_statement(start, context)
        shared = shared_declarations(first.context.commands, first.context.commands)
        # each statement once: a step's result is the next step's start
        named = [_statement_block(f"{tag}.w{k}", d, context, shared)
                 for k, d in enumerate([start, *(s.after for s in steps)])]
        blocks = ([shared_block(tag, first, shared)] if shared else []) + [text for text, _ in named]
        for k, step in enumerate(steps):
            blocks.extend(_step_blocks(f"{tag}.s{k}", step, context, named[k][1], named[k + 1][1]))
        tb, tn = _statement_block(f"{tag}.T", read, context, shared)
        blocks += [tb, f"theorem {tag}.read : Iff {named[-1][1]} {tn} := Iff.intro (fun h => @h) (fun h => @h)"]
    except (Untranslatable, ParseError):
        return None
    return blocks


def plain(decl: Declaration) -> Declaration:
    """``decl`` with the search's bound names ``x✝1`` (which Lean's parser does not accept) as ``x_read1``."""
    return parse_declaration(render_declaration(decl).replace("✝", "_read"))


def readings_proved(items: Sequence[tuple[str, Declaration, Declaration, str]], lean, *,
                    timeout_s: float = BATCH_TIMEOUT_S, n_jobs: int = -1) -> dict[str, bool]:
    """For each ``(key, written, read, context)``: whether Lean proves ``written`` ⇔ ``read`` (the items split
    over ``n_jobs`` Lean processes, all cores when not positive)."""
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
    # whole items per process, split over the cores (``processes``)
    keys = list(dict.fromkeys(owner.values()))
    n = processes(n_jobs, len(keys))
    part = {key: k % n for k, key in enumerate(keys)}
    chunks = [[b for b in blocks if part[owner[b[0]]] == c] for c in range(n)]
    try:
        answers = run_block_chunks(chunks, lean, timeout_s=timeout_s)
    except PyshadowError:
        return {key: False for key in out}
    for chunk, (result, errors) in zip([c for c in chunks if c], answers):
        if result.status != "ok":
            for index, _ in chunk:
                out[owner[index]] = False
        for index in errors:
            out[owner[index]] = False
    return out
