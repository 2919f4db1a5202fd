"""Errors a user can act on, with the CLI exit code each one maps to.

Exit codes (DESIGN.md): 0 success (failed entries are data), 1 internal error, 2 bad input.
"""

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_BAD_INPUT = 2


class PyshadowError(Exception):
    """An error with a one-line message meant for the user; ``exit_code`` says how the CLI exits."""

    exit_code = EXIT_INTERNAL


class BadInput(PyshadowError):
    """The user's input (a file, a line, a field) is unreadable or malformed; the message names where."""

    exit_code = EXIT_BAD_INPUT
