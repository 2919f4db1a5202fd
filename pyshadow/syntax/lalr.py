"""An LALR(1) driver over lark's parse table: lark builds and checks the table from a grammar, this module runs it.

Why not lark's own ``Lark.parse``: on statements this small its generic loop, token class and transformer dispatch
cost more than everything else together (``benchmarks/parse_corpus.py``). The driver here is twenty lines over
the table: terminals are plain tuples ``(kind, text, offset, end, value)``, reductions call the builder's method of
the rule's name, and runs of ``?rule: child`` pass-through reductions are collapsed into one cached lookup.

What comes from lark: the grammar, its LALR(1) analysis and conflict checks, and the table. The table is reached
through lark's interactive parser (``Lark.parse_interactive``, public API) — its ``parser_state.parse_conf`` holds
the table lark built; the rule objects (``origin``, ``expansion``, ``options.expand1``) and the table's
``states``/``start_states``/``end_states`` are lark's data structures, stable across lark 1.x but not promised
beyond it: ``pyproject.toml`` pins ``lark>=1.2,<2`` for that reason. ``lark_table`` falls back to running lark's
``LALR_Analyzer`` itself should that attribute path move within 1.x.

The caller (``pyshadow.syntax.parser``) supplies the builder and two error constructors, so this module knows
nothing of Lean.
"""

from __future__ import annotations

from typing import Any, Callable

from lark import Lark
from lark.common import ParserConf
from lark.parsers.lalr_analysis import IntParseTable, LALR_Analyzer, Shift


class Splice(list):
    """Children of a rule lark generated for ``x*``/``x+`` (named ``__…``): spliced into the parent's children."""


class NodeError(Exception):
    """A builder's complaint about a node; carries the terminal to point at."""

    def __init__(self, terminal: tuple, message: str):
        super().__init__(message)
        self.terminal = terminal


Unexpected = Callable[[str, tuple, set], Exception]  # (source, terminal, expected kinds) → the error to raise
Invalid = Callable[[str, NodeError], Exception]  # (source, the builder's complaint) → the error to raise


END = ("$END", "", -1, -1, None)


class LalrDriver:
    """lark's LALR(1) table for ``grammar``, and a loop that runs it with ``builder``'s methods as the reductions.

    ``actions[state][terminal]`` is the next state (an ``int``: shift) or a reduction (a tuple from ``_rule_info``);
    ``goto[state][rule name]`` is the state after reducing that rule.
    """

    def __init__(self, grammar: str, builder: Any, unexpected: Unexpected, invalid: Invalid) -> None:
        table = lark_table(grammar)
        self.builder = builder
        self.unexpected = unexpected
        self.invalid = invalid
        infos: dict[Any, tuple] = {}
        self.actions: dict[int, dict[str, Any]] = {}
        self.goto: dict[int, dict[str, int]] = {}
        for state, row in table.states.items():
            acts: dict[str, Any] = {}
            gotos: dict[str, int] = {}
            for symbol, (action, arg) in row.items():
                symbol = "%s" % symbol  # a plain str: lark's Token compares slowly as a dict key
                if action is Shift:
                    if symbol.isupper() or symbol == "$END":
                        acts[symbol] = arg
                    else:
                        gotos[symbol] = arg
                else:
                    if arg not in infos:
                        infos[arg] = self._rule_info(arg)
                    acts[symbol] = infos[arg]
            self.actions[state] = acts
            self.goto[state] = gotos
        self.start_state = table.start_states["start"]
        self.end_state = table.end_states["start"]
        self.passes: dict[tuple[int, int, str], int] = {}

    def _pass_chain(self, below: int, name: str, kind: str) -> int:
        """The top state after reducing ``name`` over ``below`` and every pass-through reduction that follows."""
        state = self.goto[below][name]
        act = self.actions[state].get(kind)
        while type(act) is tuple and act[0] == _PASS and state != self.end_state:
            state = self.goto[below][act[2]]
            act = self.actions[state].get(kind)
        return state

    def _rule_info(self, rule) -> tuple[int, int, str, Callable | None, bool]:
        """(mode, size, name, builder, flatten) for one grammar rule.

        Modes: a ``?rule`` of one symbol only passes its child through (``_PASS``: no list work at all — most
        reductions are these chains, atom → operand → relation → … → term); lark's ``__x_plus``/``__x_star``
        rules collect into a ``Splice`` (``_SPLICE``); every other rule calls the builder's method of its name.
        """
        name = "%s" % rule.origin.name  # a plain str, as the goto keys
        size = len(rule.expansion)
        expand1 = bool(rule.options.expand1)
        inline = [not s.is_term and s.name.startswith("_") for s in rule.expansion]
        if name.startswith("_"):
            return _SPLICE, size, name, None, any(inline[1:])
        if expand1 and size == 1:
            return _PASS, size, name, None, False
        # A `?rule` that only ever passes its single child through needs no builder method.
        handler = getattr(self.builder, name, None) or _no_builder(name)
        return (_EXPAND1 if expand1 else _BUILD), size, name, handler, any(inline)

    def parse(self, src: str, terminals: list[tuple]):
        actions, goto, end_state, passes = self.actions, self.goto, self.end_state, self.passes
        self.builder.src = src
        state = self.start_state
        states = [state]
        values: list[Any] = []
        terminals.append(END)
        for tok in terminals:
            kind = tok[0]
            act = actions[state].get(kind)
            while type(act) is not int:  # reductions until the lookahead can be shifted
                if act is None:
                    raise self.unexpected(src, tok, set(actions[state]))
                mode, size, name, handler, flatten = act
                if mode == _PASS:  # `?rule: child` — the value stays, only the state changes
                    # A run of such reductions (atom → relation → negation → … → term) depends only on the state
                    # below, the top state and the lookahead: computed once, then one lookup.
                    key = (states[-2], state, kind)
                    final = passes.get(key)
                    if final is None:
                        final = passes[key] = self._pass_chain(states[-2], name, kind)
                    state = final
                    states[-1] = state
                else:
                    if size:
                        children = values[-size:]
                        del values[-size:]
                        del states[-size:]
                    else:
                        children = []
                    if flatten:
                        children = _flattened(children)
                    if mode == _SPLICE:
                        if children and type(children[0]) is Splice:
                            value = children[0]
                            value.extend(children[1:])
                        else:
                            value = Splice(children)
                    elif mode == _EXPAND1 and len(children) == 1:
                        value = children[0]
                    else:
                        try:
                            value = handler(children)
                        except NodeError as err:
                            raise self.invalid(src, err) from None
                    state = goto[states[-1]][name]
                    states.append(state)
                    values.append(value)
                if state == end_state:
                    return values[-1]
                act = actions[state].get(kind)
            state = act
            states.append(state)
            values.append(tok[4] if kind == "ATOM" else tok)  # an ATOM stands for its Atom
        raise AssertionError("the parse table accepted no input")  # $END always reaches end_state or an error


_PASS, _SPLICE, _EXPAND1, _BUILD = range(4)


def lark_table(grammar_text: str) -> IntParseTable:
    """lark's LALR(1) table for a grammar (lark reports grammar errors and conflicts); see the module docstring."""
    grammar = Lark(grammar_text, parser="lalr", lexer="basic", start="start")
    try:  # the table lark built for its own parser, reached from its public interactive parser
        table = grammar.parse_interactive("").parser_state.parse_conf.parse_table
        if isinstance(table, IntParseTable):
            return table
    except AttributeError:
        pass
    analysis = LALR_Analyzer(ParserConf(grammar.rules, {}, ["start"]))
    analysis.compute_lalr()
    return IntParseTable.from_ParseTable(analysis.parse_table)


def _no_builder(name: str) -> Callable:
    def fail(children):
        raise AssertionError(f"grammar rule {name!r} built a node but the builder has no method for it")
    return fail


def _flattened(children: list) -> list:
    out: list = []
    for ch in children:
        if type(ch) is Splice:
            out.extend(ch)
        else:
            out.append(ch)
    return out
