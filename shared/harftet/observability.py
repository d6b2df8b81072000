"""X-Ray tracing through powertools' Tracer, only where the operator turns it on.

Tracer imports the X-Ray SDK and patches botocore: about 120 ms of every cold start, more
than the rest of the handler's own imports together (bench/RESULTS.md). The template's
``Tracing`` parameter sets POWERTOOLS_TRACE_DISABLED accordingly.

Every function's module opens with ``gc.disable()`` and ends with ``gc.freeze(); gc.enable()``:
a cold start's imports run with the cyclic collector paused (each pass it makes while they
build boto3's and our modules walks everything built so far: ~60 ms of the REST handler's
init, bench/bench_cold_start.py), and what the init built, living as long as the instance, is
frozen out of every later pass (a request's pass walks only what requests make).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

Handler = TypeVar("Handler", bound=Callable[..., Any])


def traced(enabled: bool) -> Callable[[Handler], Handler]:
    """A decorator: a handler captured by powertools' Tracer when ``enabled`` (the settings'
    tracing), left as it is otherwise."""

    def wrap(handler: Handler) -> Handler:
        if not enabled:
            return handler
        from aws_lambda_powertools import Tracer

        return cast(Handler, Tracer().capture_lambda_handler(handler))

    return wrap


def new_logger() -> Any:
    """powertools' ``Logger`` as every function of ours logs: JSON lines on stdout with an
    RFC 3339 timestamp. Lambda's JSON log format files a line by its ``level`` only when its
    timestamp is RFC 3339 ("Log-level filtering": otherwise the line is taken as INFO), so a
    WARN or ERROR line must carry one to pass an ApplicationLogLevel of WARN or ERROR. Its
    level is Lambda's (AWS_LAMBDA_LOG_LEVEL, the template's ApplicationLogLevel), which
    powertools puts before anything else; without it (the local stack, tests) LOG_LEVEL or
    POWERTOOLS_LOG_LEVEL, INFO by default."""
    from aws_lambda_powertools import Logger

    return Logger(use_rfc3339=True)


def new_metrics() -> Any:
    """powertools' ``Metrics``, silent while POWERTOOLS_METRICS_DISABLED is true. Only a
    metric an alarm reads is published (docs/DEPLOY.md "Logs"): each is a line in the
    function's log group, ingested and paid for on every invocation that flushes it.

    powertools skips the flush at the end of an invocation when metrics are disabled but
    keeps every value added, and its 100-value auto-flush then prints an EMF blob anyway
    (every 100th invocation, with a hundred values, on the local stack's console): values
    are not even collected here while metrics are off.
    """
    from aws_lambda_powertools import Metrics
    from aws_lambda_powertools.metrics.functions import is_metrics_disabled

    class QuietMetrics(Metrics):
        def add_metric(self, *args: Any, **kwargs: Any) -> None:
            if not is_metrics_disabled():
                super().add_metric(*args, **kwargs)

    return QuietMetrics()


def observed(
    logger: Any, metrics: Any | None, *, tracing: bool, correlation_id_path: str | None = None
) -> Callable[[Handler], Handler]:
    """A Lambda handler as every function of ours wears it: powertools' logger with the
    invocation's context (and correlation id), X-Ray when ``tracing`` is on, and the metrics
    flushed at the end of each invocation (``metrics`` None: the function records none)."""

    def wrap(handler: Handler) -> Handler:
        wrapped = handler if metrics is None else metrics.log_metrics(handler)
        wrapped = traced(tracing)(wrapped)
        if correlation_id_path is None:
            return cast(Handler, logger.inject_lambda_context(wrapped))
        return cast(
            Handler, logger.inject_lambda_context(correlation_id_path=correlation_id_path)(wrapped)
        )

    return wrap
