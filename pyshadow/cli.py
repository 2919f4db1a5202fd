"""The ``pyshadow`` command line: dispatches to ``pyshadow.commands.*`` and maps errors to exit codes."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from .version import __version__
from .commands import COMMAND_MODULES
from .commands.helptext import DOCS
from .errors import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, PyshadowError


DESCRIPTION = (
    "Shadow-theorem checkers and SA-Pass scoring for Lean 4 autoformalization. "
    "Exit codes (every command): 0 done, verdict as hoped; 2 bad input; 3 a needed tool is unavailable; "
    "4 done, verdict negative; 1 internal error; 130 interrupted (rerun to resume); 141 output pipe closed."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyshadow", description=DESCRIPTION,
                                     epilog=f"pyshadow COMMAND --help: its options and one example; the long text: {DOCS}")
    parser.add_argument("--version", action="version", version=f"pyshadow {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(f"pyshadow.commands.{module_name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except PyshadowError as err:
        print(f"pyshadow {args.command}: error: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt as err:
        notes = "; ".join(getattr(err, "__notes__", ()))
        print(f"pyshadow {args.command}: interrupted" + (f"; {notes}" if notes else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `pyshadow score … | head`: the reader left. Quiet exit; point stdout at /dev/null so the interpreter's
        # final flush does not raise again (Python docs, "Note on SIGPIPE", library/signal.html).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as err:  # noqa: BLE001 - last-resort boundary: one line, internal-error code
        print(f"pyshadow {args.command}: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
