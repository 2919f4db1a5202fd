"""``pyshadow.progress``: plain periodic lines without ``\\r`` off a terminal, a tqdm bar on one, silence when off."""

import io

from pyshadow import progress
from pyshadow.progress import PlainProgress, progress_bar, track


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_plain_lines_are_periodic_and_never_carriage_returns():
    out, clock = io.StringIO(), _Clock()
    with PlainProgress(100, "lean", unit="jobs", stream=out, interval=10, clock=clock) as bar:
        for i in range(100):
            clock.now = i * 0.5  # 50 s in all: a line at 10, 20, 30, 40 s
            bar.update(1)
    text = out.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) == 5
    assert lines[0] == "lean: 21/100 jobs (21%), 10 s"
    assert lines[-1] == "lean: 100/100 jobs done in 50 s"


def test_a_short_run_prints_nothing():
    out, clock = io.StringIO(), _Clock()
    with PlainProgress(3, "score", stream=out, clock=clock) as bar:
        bar.update(3)
    assert out.getvalue() == ""


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_tqdm_bar():
    term = _Terminal()
    items = list(track(range(5), 5, "score", stream=term))
    assert items == list(range(5))
    assert "\r" in term.getvalue() and "5/5" in term.getvalue()


def test_off_is_silent_and_default_follows_the_command(monkeypatch):
    out = io.StringIO()
    monkeypatch.setitem(progress._default, "enabled", False)
    assert not isinstance(progress_bar(5, "lean", stream=out), PlainProgress)
    progress.set_default(True)
    assert isinstance(progress_bar(5, "lean", stream=out), PlainProgress)
    assert not isinstance(progress_bar(5, "lean", stream=out, enabled=False), PlainProgress)


def test_an_interrupted_run_says_how_far_it_got():
    out, clock = io.StringIO(), _Clock()
    try:
        with PlainProgress(4, "lean", unit="jobs", stream=out, clock=clock) as bar:
            bar.update(2)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    assert out.getvalue() == "lean: stopped at 2/4 jobs after 0 s\n"
