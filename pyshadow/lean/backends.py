"""Where Lean processes run: ``LeanSettings.backend`` as a joblib backend around a run.

``run_jobs`` (``pyshadow.lean.batch``) hands its jobs to ``joblib.Parallel``, which defers to an enclosing
``joblib.parallel_config``. ``lean_backend(settings)`` is that enclosing configuration:

* ``loky`` (default) — local worker processes; nothing to set up.
* ``dask`` — a ``dask.distributed.Client``: to the scheduler at ``settings.scheduler`` (``tcp://host:8786``), or,
  without one, to a ``LocalCluster`` on this machine (``settings.jobs`` worker processes, one thread each).
  Optional extra: ``pip install 'pyshadow-lean[dask]'``.
* ``ray`` — ``ray.util.joblib`` on ``ray.init(address=settings.scheduler)`` (a local Ray when None). Optional.

Each worker runs ``pyshadow.lean.batch.run_job``: it must import the same pyshadow and reach the same ``lean``
path (for the kernel tier, ``~/.cache/pyshadow/…`` or ``$PYSHADOW_CACHE`` on a shared file system). Results come
back as plain dataclasses, so they are the same whichever backend ran them.

``announce`` (e.g. ``print``) is told, once the backend is up, which one runs the batches and where — a line such
as ``backend: dask (LocalCluster on this machine, 2 worker processes)`` — so a run's output says it was used; the
default local backend announces nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import BadInput, Unavailable
from .settings import BACKENDS, LeanSettings


@contextmanager
def lean_backend(settings: LeanSettings, announce: Callable[[str], None] | None = None) -> Iterator[None]:
    """Run the enclosed Lean batches on ``settings.backend``; ``announce`` gets one line naming a distributed
    backend once it is up (see the module docstring)."""
    say = announce or (lambda _line: None)
    if settings.backend not in BACKENDS:
        raise BadInput(f"unknown backend {settings.backend!r}; expected one of {', '.join(BACKENDS)}")
    if settings.backend == "loky":
        if settings.scheduler:
            raise BadInput("--scheduler needs --backend dask or ray")
        yield
        return
    import joblib

    if settings.backend == "dask":
        with _dask_client(settings) as (client, where):
            workers = len(client.scheduler_info().get("workers", {}))
            say(f"backend: dask ({where}, {workers} worker{'s' if workers != 1 else ''})")
            with joblib.parallel_config(backend="dask"):
                yield
        return
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError:
        raise Unavailable("--backend ray needs Ray, which is not installed here: pip install 'ray[default]'") from None
    register_ray()
    started = not ray.is_initialized()
    if started:
        ray.init(address=settings.scheduler, include_dashboard=False, log_to_driver=False)
    try:
        say(f"backend: ray ({'the cluster at ' + settings.scheduler if settings.scheduler else 'a local Ray'}, "
            f"{int(ray.cluster_resources().get('CPU', 0))} CPUs)")
        with joblib.parallel_config(backend="ray"):
            yield
    finally:
        if started:
            ray.shutdown()


@contextmanager
def _dask_client(settings: LeanSettings) -> Iterator[tuple[object, str]]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise Unavailable("--backend dask needs dask.distributed, which is not installed here: "
                          "pip install 'pyshadow-lean[dask]'") from None
    if settings.scheduler:
        try:
            client = Client(settings.scheduler, timeout="30s")
        except (OSError, TimeoutError) as err:
            raise Unavailable(f"cannot reach the dask scheduler at {settings.scheduler}: {err}") from None
        with client:
            yield client, f"scheduler {settings.scheduler}"
        return
    workers = settings.jobs if settings.jobs > 0 else (os.cpu_count() or 1)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client, "LocalCluster on this machine"
