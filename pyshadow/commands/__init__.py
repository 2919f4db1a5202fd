"""CLI subcommands: one module per command, each exposing ``register(subparsers)``.

A command's handler returns an exit code; it raises ``PyshadowError`` for errors the user can act on.
"""

COMMAND_MODULES = [
    "parse",
    "shadows",
    "selfcheck",
    "audit",
    "run",
    "generate",
    "verify",
    "score",
    "new",
    "check_problem",
    "import_shadowbench",
    "export",
    "robustness",
    "diff",
    "report",
    "agree",
    "judge",
    "lint",
]
