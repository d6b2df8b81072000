"""Scheduled sweeper: turn timeouts, disconnect grace, substitutes' wait, computer players."""

from __future__ import annotations

import os
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from harftet.observability import new_metrics, traced
from harftet.wiring import default_service

logger = Logger()
metrics = new_metrics()
service = default_service()
# How long one invocation keeps sweeping as deadlines fall due (the schedule runs once a
# minute; 0 sweeps once and returns, as the local stack's 2-second loop wants).
WINDOW = float(os.environ.get("SWEEP_WINDOW_SECONDS", "0"))


@logger.inject_lambda_context
@traced
@metrics.log_metrics
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    budget = min(WINDOW, context.get_remaining_time_in_millis() / 1000 - 5)
    swept = service.sweep_for(budget) if budget > 0 else service.sweep()
    metrics.add_metric(name="TablesSwept", unit=MetricUnit.Count, value=swept)
    return {"swept": swept}
