"""Errors a user can act on, and the one table of exit codes every command follows (README "Exit codes").

| code | meaning |
| ---- | ------- |
| 0 | the command did its job and every verdict is the hoped one (entries that fail in a measurement — a statement
      that does not parse, a candidate that scores 0 — are data rows, not errors) |
| 1 | internal error (a bug: one line on stderr) |
| 2 | bad input: unreadable or empty input, no entry at all loads, contradictory options |
| 3 | a tool the command needs is unavailable here: the requested Lean tier, git for ``diff``, an optional backend |
| 4 | the command did its job and the verdict is negative: a problem incomplete or unusable (its row says why), a
      sample not as expected, audit findings, something for a problem's author to fix |
| 130 | interrupted (Ctrl-C): rows already written are kept; the message says how many, and rerunning resumes |
| 141 | the output pipe was closed by its reader (``pyshadow … | head``): a quiet exit, nothing on stderr |
"""

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 3
EXIT_NEGATIVE = 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE


class PyshadowError(Exception):
    """An error with a one-line message meant for the user; ``exit_code`` says how the CLI exits."""

    exit_code = EXIT_INTERNAL


class BadInput(PyshadowError):
    """The user's input (a file, a line, a field) is unreadable or malformed; the message names where."""

    exit_code = EXIT_BAD_INPUT


class EmptyInput(BadInput):
    """The input holds no entry at all (an empty folder or file): nothing to do is bad input everywhere."""


class Unavailable(PyshadowError):
    """A tool the command needs (a Lean tier, git, an optional backend) is not available here."""

    exit_code = EXIT_UNAVAILABLE
