"""Strict scoring (``Settings.lean_checked_only``, the default): a pass Lean did not check is undecided; a checked one
stays; ``--allow-unchecked`` lets the unchecked pass stand, marked so."""

from __future__ import annotations

import argparse

import pytest

import pyshadow
from pyshadow.commands.common import add_lean_arguments
from pyshadow.errors import BadInput
from pyshadow.settings import Settings

# `Zorblat.weird` is declared nowhere: the environment cannot elaborate the statements, so the skeleton's pass
# (`x > 0` read as `0 < x`) is unchecked.
REF = "theorem t (x : ℕ) (h : Zorblat.weird x = 4) : x > 0"
CAND = "theorem t (x : ℕ) (h : Zorblat.weird x = 4) : 0 < x"


@pytest.mark.kernel
def test_an_unchecked_pass_is_undecided_under_strict_scoring(kernel_lean_exe):
    lenient = pyshadow.check_pair(REF, CAND, settings=Settings(lean_checked_only=False))
    assert lenient.verdict == "pass" and lenient.lean == "unchecked"
    strict = pyshadow.check_pair(REF, CAND)  # the default
    assert strict == pyshadow.check_pair(REF, CAND, settings=Settings(lean_checked_only=True))
    assert strict.verdict == "undecided" and not strict.sa_pass
    assert "Lean did not check" in strict.reason and "Zorblat.weird" in strict.reason
    # the nearest Lean-checked pair stays a pass
    checked = pyshadow.check_pair(REF.replace("Zorblat.weird x", "x"), CAND.replace("Zorblat.weird x", "x"),
                                  settings=Settings(lean_checked_only=True))
    assert checked.verdict == "pass" and checked.lean == "accepted"
    # and a changed pair still fails
    changed = pyshadow.check_pair(REF, CAND.replace("0 < x", "1 < x"), settings=Settings(lean_checked_only=True))
    assert changed.verdict == "fail"


def test_the_setting_is_read_from_the_environment_and_the_command_line():
    assert Settings.from_env({"PYSHADOW_LEAN_CHECKED_ONLY": "1"}).lean_checked_only is True
    assert Settings.from_env({}).lean_checked_only is True  # the default
    assert Settings.from_env({"PYSHADOW_LEAN_CHECKED_ONLY": "0"}).lean_checked_only is False
    with pytest.raises(BadInput, match="expected 1 or 0"):
        Settings.from_env({"PYSHADOW_LEAN_CHECKED_ONLY": "maybe"})
    p = argparse.ArgumentParser()
    add_lean_arguments(p)
    assert Settings.from_args(p.parse_args(["--lean-checked-only"]), environ={}).lean_checked_only is True
    assert Settings.from_args(p.parse_args([]), environ={"PYSHADOW_LEAN_CHECKED_ONLY": "1"}).lean_checked_only
    assert Settings.from_args(p.parse_args(["--allow-unchecked"]), environ={}).lean_checked_only is False
    assert not Settings.from_args(p.parse_args([]), environ={"PYSHADOW_LEAN_CHECKED_ONLY": "0"}).lean_checked_only
    assert Settings.from_args(p.parse_args(["--lean-checked-only"]),
                              environ={"PYSHADOW_LEAN_CHECKED_ONLY": "0"}).lean_checked_only is True
    with pytest.raises(BadInput, match="lean_checked_only must be True or False"):
        Settings(lean_checked_only="yes")
