"""Progress on long runs: a tqdm bar when stderr is a terminal, plain periodic lines (never ``\\r``) otherwise.

A log file or CI output gets one line such as ``lean: 120/400 jobs (30%), 45 s`` at most every ``interval``
seconds, a closing ``… done in N s`` line only when it printed something before — a short run stays silent — and
``… stopped at K/N`` when the run is interrupted.
Commands that run long (score, verify, run, robustness, selfcheck) turn progress on with ``set_default(True)``;
``pyshadow.lean.batch.run_jobs`` then reports its Lean jobs unless told otherwise.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TypeVar

T = TypeVar("T")
DEFAULT_INTERVAL_S = 10.0
_default = {"enabled": False}


def set_default(enabled: bool) -> None:
    """Whether progress is shown where a caller does not say (a command's choice for its whole run)."""
    _default["enabled"] = bool(enabled)


def default_enabled() -> bool:
    return _default["enabled"]


class PlainProgress:
    """Counts, and prints a plain line at most every ``interval`` seconds (``clock`` injectable for tests)."""

    def __init__(self, total: int | None, desc: str, *, initial: int = 0, unit: str = "it",
                 stream: IO[str] | None = None, interval: float = DEFAULT_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.desc, self.n, self.unit = total, desc, initial, unit
        self.stream = stream if stream is not None else sys.stderr
        self.interval, self.clock = interval, clock
        self.start = self.last = clock()
        self.printed = False

    def _line(self, suffix: str) -> None:
        self.stream.write(f"{self.desc}: {suffix}\n")
        self.stream.flush()
        self.printed = True

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            share = f" ({100 * self.n // self.total}%)" if self.total else ""
            of = f"/{self.total}" if self.total is not None else ""
            self._line(f"{self.n}{of} {self.unit}{share}, {now - self.start:.0f} s")

    def close(self) -> None:
        if self.printed:
            of = f"/{self.total}" if self.total is not None else ""
            self._line(f"{self.n}{of} {self.unit} done in {self.clock() - self.start:.0f} s")
            self.printed = False

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is not None:  # interrupted or failed: say how far it got, whatever the interval
            of = f"/{self.total}" if self.total is not None else ""
            self._line(f"stopped at {self.n}{of} {self.unit} after {self.clock() - self.start:.0f} s")
            self.printed = False
        self.close()


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_bar(total: int | None, desc: str, *, initial: int = 0, unit: str = "it", enabled: bool | None = None,
                 stream: IO[str] | None = None, interval: float = DEFAULT_INTERVAL_S):
    """A context manager with ``update(n)``: tqdm on a terminal, ``PlainProgress`` otherwise, silent when off
    (``enabled`` None: ``default_enabled()``)."""
    if not (default_enabled() if enabled is None else enabled):
        return _Silent()
    stream = stream if stream is not None else sys.stderr
    if getattr(stream, "isatty", lambda: False)():
        from tqdm import tqdm  # imported on use: only a terminal needs it

        return tqdm(total=total, initial=initial, desc=desc, unit=unit, file=stream)
    return PlainProgress(total, desc, initial=initial, unit=unit, stream=stream, interval=interval)


def track(items: Iterable[T], total: int | None, desc: str, *, unit: str = "it", enabled: bool | None = True,
          stream: IO[str] | None = None) -> Iterator[T]:
    """``items`` unchanged, reporting progress as each one arrives."""
    with progress_bar(total, desc, unit=unit, enabled=enabled, stream=stream) as bar:
        for item in items:
            yield item
            bar.update(1)
