"""Short, plain ``--help`` for every command: one description line, one line per option, the options every Lean
or LLM command shares as a wrapped list of their spellings, and one example. The long text is docs/commands.md.
"""

from __future__ import annotations

import argparse

DOCS = "docs/commands.md"
EXAMPLE = "example:"
DETAILS = "details:"


class CommandHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``RawDescriptionHelpFormatter`` with a one-line usage (optional options as ``[options]``), help strings at
    a fixed column, and the actions of a shared group (``compact_group``) listed by spelling only."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 26,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, width)

    def add_usage(self, usage, actions, groups, prefix=None) -> None:
        if usage is None:
            actions = list(actions)
            parts = ["%(prog)s"]
            if any(a.option_strings and not a.required for a in actions):
                parts.append("[options]")
            parts += [self._format_args(a, self._get_default_metavar_for_positional(a))
                      for a in actions if not a.option_strings]
            parts += [f"{a.option_strings[0]} {self._format_args(a, self._get_default_metavar_for_optional(a))}"
                      for a in actions if a.option_strings and a.required]
            usage = " ".join(parts)
        super().add_usage(usage, actions, groups, prefix)

    def add_arguments(self, actions) -> None:
        actions = list(actions)
        if actions and all(getattr(a, "compact", False) for a in actions):
            width = max(self._width - self._current_indent, 20)
            lines: list[str] = []
            for item in (self._spelling(a) for a in actions):
                if lines and len(lines[-1]) + 2 + len(item) <= width:
                    lines[-1] += "  " + item
                else:
                    lines.append(item)
            self.add_text("\n".join(lines))
            return
        super().add_arguments(actions)

    def _metavar_formatter(self, action, default_metavar):
        if action.metavar is None and action.choices is not None:  # full|kernel, not {full,kernel}
            choices = "|".join(map(str, action.choices))
            return lambda size: (choices,) * size if isinstance(size, int) else (choices,)
        return super()._metavar_formatter(action, default_metavar)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        args = self._format_args(action, self._get_default_metavar_for_optional(action))
        return f"{', '.join(action.option_strings)} {args}"  # -o, --output FILE (not -o FILE, --output FILE)

    def _format_action(self, action: argparse.Action) -> str:
        """As argparse's, but the help stays on the invocation's line whenever the two fit in the width."""
        invocation = self._format_action_invocation(action)
        start = self._current_indent + len(invocation) + 2
        help_position = min(self._action_max_length + 2, self._max_help_position)
        if (action.help and action.help is not argparse.SUPPRESS and start > help_position
                and start + len(self._expand_help(action)) <= self._width):
            return f"{' ' * self._current_indent}{invocation}  {self._expand_help(action)}\n"
        return super()._format_action(action)

    def _spelling(self, action: argparse.Action) -> str:
        names = "/".join(action.option_strings)
        if action.nargs == 0:
            return names
        return f"{names} {self._format_args(action, self._get_default_metavar_for_optional(action))}"


def add_command(subparsers, name: str, summary: str, example: str, *, description: str | None = None,
                **kwargs) -> argparse.ArgumentParser:
    """The subcommand ``name``: ``summary`` (one line) as its help in ``pyshadow --help``; ``description`` (default:
    ``summary``) as its description; its epilog: ``example`` (one invocation, without the leading ``pyshadow``) and
    where its long text is (docs/commands.md, ``## name``)."""
    parser = subparsers.add_parser(
        name, help=summary, description=f"{(description or summary)[:1].upper()}{(description or summary)[1:]}.",
        epilog=f"{EXAMPLE} pyshadow {example}\n{DETAILS} {DOCS}#{name}", formatter_class=CommandHelpFormatter,
        **kwargs)
    for action in parser._actions:  # -h goes without saying in the text it prints
        if isinstance(action, argparse._HelpAction):
            action.help = argparse.SUPPRESS
    # One "arguments:" section for positionals and options alike (argparse files positionals in _positionals;
    # left empty, that section prints nothing).
    parser._optionals.title = "arguments"
    parser._positionals = parser._optionals
    return parser


def compact_group(parser: argparse.ArgumentParser, title: str, *, rename: str | None = None,
                  description: str | None = None) -> None:
    """List the options of ``parser``'s group ``title`` by spelling only (their help is in docs/commands.md)."""
    for group in parser._action_groups:  # argparse keeps its groups here; there is no public accessor
        if group.title == title:
            group.title = rename or title
            group.description = description
            for action in group._group_actions:
                action.compact = True
            return
    raise ValueError(f"no option group {title!r}")
