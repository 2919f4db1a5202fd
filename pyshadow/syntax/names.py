"""Fresh identifiers: the one generator every layer uses for names that must not clash with a statement's own.

``FreshNames(taken, template=…)`` hands out ``template.format(base=…, n=…)`` names that are not in ``taken`` and
were not handed out before (each is added to ``taken``). Two numbering schemes cover every use:

* per base (default): the smallest ``n`` ≥ 1 that is free for this base — ``P1``, ``P2``, ``t1`` … (the kernel
  tier's constants); with ``bare_first`` the base itself is tried first — ``h``, ``h2``, ``h3`` … (robustness
  variants);
* ``shared_counter``: one counter across all bases, always increasing — ``a_1``, ``h_2``, ``x_3`` … (lambda-bound
  names in the shadow rules, the skeleton prover's hypotheses), so a number never repeats within a statement.
"""

from __future__ import annotations

from collections.abc import Iterable


class FreshNames:
    def __init__(self, taken: Iterable[str] = (), *, template: str = "{base}{n}", shared_counter: bool = False,
                 bare_first: bool = False):
        self.taken = set(taken)
        self.template = template
        self.shared_counter = shared_counter
        self.bare_first = bare_first
        self.counter = 0

    def __call__(self, base: str) -> str:
        if self.bare_first and base not in self.taken:
            return self._take(base)
        n = self.counter if self.shared_counter else (1 if self.bare_first else 0)
        while True:
            n += 1
            name = self.template.format(base=base, n=n)
            if name not in self.taken:
                if self.shared_counter:
                    self.counter = n
                return self._take(name)

    def _take(self, name: str) -> str:
        self.taken.add(name)
        return name
