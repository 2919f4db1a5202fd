"""Rendering the prompt templates in ``templates/prompts/`` into chat messages.

Each residual task kind has a user template ``<kind>.j2``; ``system.j2`` is shared and sees ``task_kind``. Templates
render with ``StrictUndefined`` (a context key a template needs but the task did not supply is an error naming the
key), no autoescaping (the output is Markdown and Lean, not HTML), and trimmed block lines.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

from ..paths import TEMPLATES_DIR
from .errors import LLMConfigError

PROMPTS_DIR = TEMPLATES_DIR / "prompts"
SYSTEM_TEMPLATE = "system.j2"


@functools.lru_cache(maxsize=8)
def _environment(directory: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_template(name: str, context: Mapping[str, Any], directory: Path | None = None) -> str:
    """Render ``templates/prompts/<name>`` with ``context``; one-line ``LLMConfigError`` on a missing file or key."""
    folder = str(directory or PROMPTS_DIR)
    try:
        template = _environment(folder).get_template(name)
        return template.render(**context).strip() + "\n"
    except jinja2.TemplateNotFound:
        raise LLMConfigError(f"prompt template {name} not found in {folder}") from None
    except jinja2.UndefinedError as err:
        raise LLMConfigError(f"prompt template {name}: {err.message}") from None


def render_messages(kind: str, context: Mapping[str, Any], directory: Path | None = None) -> list[dict[str, str]]:
    """The system and user messages for a task of ``kind`` (``shadows``, ``certificate``, ``adapter``)."""
    full = {**context, "task_kind": kind}
    return [
        {"role": "system", "content": render_template(SYSTEM_TEMPLATE, full, directory)},
        {"role": "user", "content": render_template(f"{kind}.j2", full, directory)},
    ]
