"""Map one function over chunks of work, here or on a Ray cluster.

Each chunk is independent and seeded by its index, so the merged result does not depend on
where or in which order the chunks ran. Results come back in chunk order.

>>> run_chunks(pow, [(2, 3), (3, 2)])
[8, 9]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = ["run_chunks"]

T = TypeVar("T")


def run_chunks(function: Callable[..., T], chunks: Sequence[tuple[Any, ...]], *,
               ray: bool = False, address: str | None = None, num_cpus: int | None = None,
               on_result: Callable[[int, T], None] | None = None) -> list[T]:
    """``[function(*chunk) for chunk in chunks]``, as Ray tasks when ``ray`` is true.

    With Ray: an already initialised Ray session is used as it is; otherwise one is started
    (``address``: a cluster such as ``"auto"`` or ``"ray://host:10001"``, default a local
    one with ``num_cpus`` CPUs) and shut down at the end. Each task asks for one CPU.
    ``on_result(index, result)`` is called as each chunk finishes (in completion order).
    """
    if not ray:
        results = []
        for index, chunk in enumerate(chunks):
            result = function(*chunk)
            if on_result is not None:
                on_result(index, result)
            results.append(result)
        return results
    import ray as ray_module

    started = not ray_module.is_initialized()
    if started:
        ray_module.init(address=address, num_cpus=num_cpus, include_dashboard=False,
                        log_to_driver=False)
    try:
        task = ray_module.remote(num_cpus=1)(function)
        refs = [task.remote(*chunk) for chunk in chunks]
        index_of = {ref: i for i, ref in enumerate(refs)}
        out: dict[int, T] = {}
        pending = list(refs)
        while pending:
            done, pending = ray_module.wait(pending, num_returns=1)
            for ref in done:
                i = index_of[ref]
                out[i] = ray_module.get(ref)
                if on_result is not None:
                    on_result(i, out[i])
        return [out[i] for i in range(len(refs))]
    finally:
        if started:
            ray_module.shutdown()


def chunk_sizes(total: int, size: int) -> Iterable[int]:
    """``total`` split into pieces of ``size`` (the last one smaller)."""
    for start in range(0, total, size):
        yield min(size, total - start)
