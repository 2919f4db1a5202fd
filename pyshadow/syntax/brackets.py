"""Bracket depth over plain text: the few questions asked of atom text that need no tokens.

Atoms are verbatim Lean text; deciding whether ``(x + 1)`` is wrapped in redundant parentheses, or where the
top-level ``:`` of ``e : T`` is, only needs bracket depth. (Brackets inside strings are not special here: atom
keys and type guesses are heuristics over well-formed statement text, never a parser.)
"""

from __future__ import annotations

OPENERS = "([{⟨"
CLOSERS = ")]}⟩"


def balanced(text: str) -> bool:
    """Whether every bracket in ``text`` closes, in order."""
    depth = 0
    for ch in text:
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def strip_outer_parens(text: str) -> str:
    """``((x + 1))`` → ``x + 1``; ``(a) + (b)`` is left alone (its outer parentheses are not one pair)."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and balanced(text[1:-1]):
        text = text[1:-1].strip()
    return text


def split_top_level(text: str, sep: str) -> list[str]:
    """``text`` split at the one-character ``sep`` where it stands outside every bracket."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts
