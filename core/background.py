"""Background work after a transaction commits, off the request's path.

With a broker (REDIS_URL) a task goes to the Celery workers. Without one (the embedded
default of `make run`), or when the broker cannot take it, the same task runs in a thread of
this process. Either way it starts only once the transaction that asked for it commits (the
work never sees rows that may yet roll back), and a failure (a mail server that is down or
hangs) is logged, never raised into the request that caused it.

The tasks are passed in by the apps that own them: this module knows none of them.
"""

import logging
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import close_old_connections, connections, transaction
from kombu import pools

logger = logging.getLogger(__name__)

# Two threads: mail to a hanging server (EMAIL_TIMEOUT) must not queue everything behind it.
_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="background")
_pending: set[Future] = set()
_lock = threading.Lock()
_muted: ContextVar[bool] = ContextVar("background_muted", default=False)


def run_after_commit(task, /, **kwargs) -> None:
    """Run the Celery `task` with keyword arguments once the current transaction commits
    (not at all inside `muted()`)."""
    if _muted.get():
        return
    transaction.on_commit(lambda: _dispatch(task, kwargs))


@contextmanager
def muted() -> Iterator[None]:
    """No background work for what is done inside (the demo data: made-up history that
    nobody is to be told about)."""
    token = _muted.set(True)
    try:
        yield
    finally:
        _muted.reset(token)


def is_muted() -> bool:
    """Inside muted(): no background work, and no mail written (core/outbox.py)."""
    return _muted.get()


def wait_idle(timeout: float | None = None) -> bool:
    """Wait for the in-process tasks started so far; False if some still run after `timeout`.

    For tests and an orderly shutdown: nothing in the shop waits for background work.
    """
    with _lock:
        futures = set(_pending)
    _done, not_done = wait(futures, timeout=timeout)
    return not not_done


def _dispatch(task, kwargs: dict) -> None:
    if settings.CELERY_BROKER_URL:
        try:
            _publish(task, kwargs, settings.CELERY_BROKER_URL)
            return
        except Exception:
            logger.warning(
                "Broker unavailable: running %s in this process", task.name, exc_info=True
            )
    future = _executor.submit(_run, task, kwargs)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_forget)


def _publish(task, kwargs: dict, broker_url: str) -> None:
    # The broker the settings name now, through kombu's producer pool for that broker (tests
    # point the settings at another one; the app's own pool keeps its first).
    connection = task.app.connection_for_write(broker_url)
    with pools.producers[connection].acquire(block=True, timeout=2) as producer:
        task.apply_async(kwargs=kwargs, producer=producer)


def _forget(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def _run(task, kwargs: dict) -> None:
    close_old_connections()
    try:
        task(**kwargs)
    except Exception:
        logger.exception("Background task %s%r failed", task.name, kwargs)
    finally:
        connections.close_all()  # this thread's own connections
