"""A small API Gateway on one port: the REST API at `/` (rest_api.py), the WebSocket API at `/ws`
and its Management API at `/@connections/{id}` (websocket_api.py), the sweeper's schedule, the
event source mappings, and the web client at `/play/`.

The handlers are the same files that run in AWS (see runtime.py for how they are invoked).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute

from harftet.localstack import schedules
from harftet.localstack.client_files import client_routes, generated_files
from harftet.localstack.lambda_api import LocalDeployApis
from harftet.localstack.rest_api import RestApi
from harftet.localstack.runtime import FunctionSpec, LambdaFunction
from harftet.localstack.sources import keep_running
from harftet.localstack.template import HTTP_METHODS, TemplateSettings
from harftet.localstack.websocket_api import MANAGEMENT_METHODS, WebSocketApi

log = logging.getLogger("harftet.localstack")
# The deploy hooks (lambda_api.py): key → (handler file, its own variables beside the env).
Hooks = Mapping[str, tuple[str | Path, Mapping[str, str]]]

REPOSITORY = Path(__file__).resolve().parents[3]
WEB_DIR = Path(os.environ.get("HARFTET_WEB") or REPOSITORY / "clients" / "web")
"""The web client served at /play/: the repository's clients/web (HARFTET_WEB names another
folder, for a package installed away from its repository)."""


class Emulator:
    """The state behind the app: the functions, the two APIs, the event sources, readiness."""

    def __init__(
        self,
        *,
        rest: LambdaFunction | None,
        ws: LambdaFunction | None,
        sweeper: LambdaFunction | None,
        sweep_seconds: float,
        fanout: LambdaFunction | None = None,
        timer: LambdaFunction | None = None,
        notifier: LambdaFunction | None = None,
        leagues: LambdaFunction | None = None,
        matcher: LambdaFunction | None = None,
        keys: LambdaFunction | None = None,
        synthetic_game: LambdaFunction | None = None,
        match_seconds: float = 1.0,
        tournaments: LambdaFunction | None = None,
        tournament_seconds: float = schedules.TOURNAMENT_SECONDS,
        ws_route_response: bool,
        ready_check: Callable[[], bool] | None,
        settings: TemplateSettings | None,
        throttle: tuple[float, int] | None = None,
        operator_key: str | None = None,
    ) -> None:
        self.rest = rest
        self.rest_api = RestApi(rest, settings, throttle, operator_key)
        self.ws = ws
        self.websocket_api = WebSocketApi(
            ws,
            ws_route_response,
            settings.ws_routes if settings is not None else None,
            throttled=throttle is not None,  # the template's route throttles, as REST's
        )
        self.sweeper = sweeper
        self.fanout = fanout
        self.timer = timer
        self.notifier = notifier  # notifications (harftet.notify), from its queue
        self.leagues = leagues  # the league roll-over, on its schedule (harftet.leagues.weeks)
        self.matcher = matcher  # matchmaking: the match table's stream and a schedule
        self.keys = keys  # the signing keys' rotation, on its schedule (functions/keys)
        self.synthetic_game = synthetic_game  # functions/synthetic, on its schedule
        # Its period (None: not rotated; schedules.key_rotation_seconds), the last rotation's
        # {"kids", "at", "rotations"} (GET /health), what follows each (the data folder).
        self.key_rotation_seconds: float | None = None
        self.keys_rotated: dict[str, Any] | None = None
        self.on_keys_rotated: Callable[[], None] | None = None
        # The stream sources of a new environment's tables (mappings follow restored tables).
        self.repoint: Callable[[Mapping[str, str]], list[tuple[str, Any]]] | None = None
        self.match_seconds = match_seconds
        self.tournaments = tournaments  # tournament rounds, on their schedule
        self.tournament_seconds = tournament_seconds
        self.sweep_seconds = sweep_seconds
        self.ready_check = ready_check
        self.started = False
        self.sources: list[tuple[str, Any]] = []
        self.source_tasks: dict[int, asyncio.Task[None]] = {}
        # An event source is stuck past this lag (None: twice its function's timeout, ≥ 60 s).
        self.stuck_seconds: float | None = None
        # The synthetic game (template's SyntheticGameRate; None: not played) and its last result.
        self.synthetic_seconds: float | None = None
        self.synthetic: dict[str, Any] | None = None

    @property
    def functions(self) -> list[LambdaFunction]:
        """The configured functions."""
        every = (
            self.rest,
            self.ws,
            self.sweeper,
            self.fanout,
            self.timer,
            self.notifier,
            self.matcher,
            self.leagues,
            self.keys,
            self.synthetic_game,
            self.tournaments,
        )
        return [f for f in every if f is not None]

    @functools.cached_property
    def hooks(self) -> dict[str, LambdaFunction]:
        """CodeDeploy's pre-traffic hooks by key (create_app adds them): never warmed, each
        starts on its first invoke, as in a deploy."""
        return {}

    @functools.cached_property
    def deploy_apis(self) -> LocalDeployApis:
        """Lambda's and CodeDeploy's APIs the hooks call (lambda_api.py)."""
        return LocalDeployApis(self.invokable, self.rest_api.operator_key)

    def invokable(self) -> dict[str, LambdaFunction]:
        """Every function Lambda's API may invoke, by name (harftet-rest, …)."""
        return {f.spec.name: f for f in (*self.functions, *self.hooks.values())}

    def ready(self) -> bool:
        """True once the functions are warm and the data store answers."""
        return self.started and (self.ready_check is None or self.ready_check())

    def source_health(self) -> list[dict[str, Any]]:
        """Each event source mapping's lag and liveness (what `GET /health` reports)."""
        now = time.time()
        found = []
        for function, source in self.sources:
            health = getattr(source, "health", None)
            if health is None:
                continue
            target = {"fanout": self.fanout, "timer": self.timer}.get(function)
            timeout = target.spec.timeout_seconds if target is not None else 30.0
            limit = self.stuck_seconds or max(60.0, 2 * timeout)
            report = health.report(now)
            mapping = source.mapping
            report = {
                "function": function,
                "source": mapping.source,
                "kind": mapping.kind,
                "doorbell": bool(getattr(source, "doorbell", False)),
                **report,
            }
            task = self.source_tasks.get(id(source))
            report["stuck"] = bool(
                report["lagSeconds"] > limit
                or report["sincePollSeconds"] > limit
                or (task is not None and task.done())
            )
            found.append(report)
        return found

    async def health(self, request: Request) -> Response:
        """`GET /health`: 200 once the stack is ready, 503 before — and 503 while an event
        source is stuck (its oldest record waited too long, or its poller stopped polling)."""
        if not self.ready():
            return JSONResponse({"status": "starting"}, status_code=503)
        sources = self.source_health()
        if any(s["stuck"] for s in sources):
            return JSONResponse({"status": "stuck", "sources": sources}, status_code=503)
        return JSONResponse(
            {
                "status": "ok",
                "sources": sources,
                "synthetic": self.synthetic,
                "keys": self.keys_rotated,
            }
        )

    # --- the event sources ------------------------------------------------------------------

    async def configure(self, request: Request) -> Response:
        """`PUT /@functions/environment` `{"Variables": {...}}` with the operator key: every
        function's new execution environments get these variables (`aws lambda
        update-function-configuration` for each), and the event source mappings of the tables
        they name follow (the restore runbook's "point the stack at them", docs/DEPLOY.md)."""
        import hmac

        from harftet.localstack.rest_api import OPERATOR_HEADER

        given, key = request.headers.get(OPERATOR_HEADER, ""), self.rest_api.operator_key or ""
        if not (key and hmac.compare_digest(given.encode(), key.encode())):
            return JSONResponse({"message": "Forbidden"}, status_code=403)
        try:
            variables = (await request.json())["Variables"]
            assert all(isinstance(v, str) for v in (*variables, *variables.values()))
        except Exception:
            message = 'send {"Variables": {"NAME": "value", ...}}'
            return JSONResponse({"message": message}, status_code=400)
        for function in self.functions:
            function.reconfigure(variables)
        moved = await run_in_threadpool(self.repoint, variables) if self.repoint else []
        for key, source in moved:  # the old mapping of that function and kind stops
            for old_key, old in list(self.sources):
                if old_key == key and old.mapping.kind == source.mapping.kind:
                    self.sources.remove((old_key, old))
                    task = self.source_tasks.pop(id(old), None)
                    if task is not None:
                        task.cancel()
        self.start_sources(moved)
        sources = [f"{key} <- {source.mapping.source}" for key, source in moved]
        return JSONResponse(
            {"functions": [f.spec.name for f in self.functions], "sources": sources}
        )

    def start_sources(self, event_sources: list[tuple[str, Any]]) -> list[asyncio.Task[None]]:
        """Poll each event source for its function (one the stack runs), as Lambda's event
        source mappings do; the polling tasks."""
        targets = {
            "fanout": self.fanout, "timer": self.timer, "notifier": self.notifier,
            "matcher": self.matcher,
        }  # fmt: skip
        tasks = []
        for key, source in event_sources:
            target = targets.get(key)
            if target is not None:
                task = asyncio.create_task(keep_running(key, source, target.invoke))
                self.sources.append((key, source))
                self.source_tasks[id(source)] = task
                tasks.append(task)
        return tasks


def create_app(
    *,
    rest_handler: str | Path | None = None,
    ws_handler: str | Path | None = None,
    sweeper: str | Path | None = None,
    fanout: str | Path | None = None,
    timer: str | Path | None = None,
    notifier: str | Path | None = None,
    leagues: str | Path | None = None,
    matcher: str | Path | None = None,
    keys: str | Path | None = None,
    synthetic_game: str | Path | None = None,
    match_seconds: float = 1.0,
    tournaments: str | Path | None = None,
    hooks: Hooks | None = None,
    event_sources: list[tuple[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    sweep_seconds: float,
    max_concurrency: int = 8,
    static_dir: str | Path | None = WEB_DIR,
    ws_route_response: bool = False,
    ready_check: Callable[[], bool] | None = None,
    settings: TemplateSettings | None = None,
    throttle: tuple[float, int] | None = None,
    operator_key: str | None = None,
) -> Starlette:
    """The emulator as a Starlette app, handlers invoked with `env`. With `settings` (template.yaml)
    only its REST routes reach the handler, refusals as its GatewayResponses (without: every path,
    `/{proxy+}`); `operator_key` stands in for AWS_IAM (API.md v4); `event_sources`: (function
    key, source) pairs, each polled while the app runs, as an event source mapping does."""
    env = dict(env or {})

    def function(key: str, path: str | Path | None) -> LambdaFunction | None:
        return _function(key, path, env, settings, max_concurrency)

    emulator = Emulator(
        rest=function("rest", rest_handler),
        ws=function("ws", ws_handler),
        sweeper=function("sweeper", sweeper),
        sweep_seconds=sweep_seconds,
        fanout=function("fanout", fanout),
        timer=function("timer", timer),
        notifier=function("notifier", notifier),
        leagues=function("leagues", leagues),
        matcher=function("matcher", matcher),
        keys=function("keys", keys),
        synthetic_game=function("synthetic", synthetic_game),
        match_seconds=match_seconds,
        tournaments=function("tournaments", tournaments),
        ws_route_response=ws_route_response, ready_check=ready_check, settings=settings,
        throttle=throttle, operator_key=operator_key,
    )  # fmt: skip
    app = Starlette(
        routes=_routes(emulator, env, static_dir),
        lifespan=_lifespan(emulator, event_sources or []),
        exception_handlers={404: emulator.rest_api.not_found},
    )
    _pace(emulator, env, settings, hooks or {})
    app.state.emulator = emulator
    return app


def _pace(
    emulator: Emulator, env: Mapping[str, str], settings: TemplateSettings | None, hooks: Hooks
) -> None:
    """When /health calls a function stuck, and how often the synthetic game plays (its
    schedule in the template unless the environment says otherwise); the deploy hooks, each
    with its own variables beside ``env``."""
    for key, (path, own) in hooks.items():
        emulator.hooks[key] = LambdaFunction(_spec(key, path, {**env, **own}, settings), 2)
    stuck = env.get("HEALTH_STUCK_SECONDS") or os.environ.get("HEALTH_STUCK_SECONDS")
    emulator.stuck_seconds = float(stuck) if stuck else None
    emulator.synthetic_seconds = schedules.synthetic_seconds(env, settings)
    emulator.key_rotation_seconds = schedules.key_rotation_seconds(env, settings)


def _function(
    key: str,
    path: str | Path | None,
    env: dict[str, str],
    settings: TemplateSettings | None,
    max_concurrency: int,
) -> LambdaFunction | None:
    """The function of a handler file, with the template's timeout and memory (None: none)."""
    if path is None:
        return None
    return LambdaFunction(_spec(key, path, env, settings), max_concurrency=max_concurrency)


def _spec(
    key: str, path: str | Path, env: Mapping[str, str], settings: TemplateSettings | None
) -> FunctionSpec:
    """A function of a handler file, with the template's timeout and memory."""
    return FunctionSpec(
        name=f"harftet-{key}",
        path=str(path),
        env=dict(env),
        timeout_seconds=settings.timeouts.get(key, 30.0) if settings else 30.0,
        memory_mb=settings.memory.get(key, 512) if settings else 512,
    )


def _lifespan(
    emulator: Emulator, event_sources: list[tuple[str, Any]]
) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    """Warm the functions, then run the schedule and the event sources until shut down."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # What a client calls is warm before /health says ready; the event sources' functions
        # warm meanwhile (they are invoked once something is stored or due).
        later = (emulator.fanout, emulator.timer, emulator.notifier, emulator.matcher)
        late = (*later, emulator.leagues, emulator.keys, emulator.synthetic_game)
        behind = [f for f in (*late, emulator.tournaments) if f is not None]
        warming = asyncio.create_task(_warm(behind))
        await _warm([f for f in emulator.functions if f not in behind])
        emulator.started = True
        tasks = schedules.start(emulator) + emulator.start_sources(event_sources)
        try:
            yield
        finally:
            warming.cancel()
            for task in [*tasks, *emulator.source_tasks.values()]:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for fn in (*emulator.functions, *emulator.hooks.values()):
                await run_in_threadpool(fn.close)

    return lifespan


async def _warm(functions: list[LambdaFunction]) -> None:
    loaded = await asyncio.gather(*(f.warm() for f in functions))
    for fn, ok in zip(functions, loaded, strict=True):
        if not ok:
            log.warning("%s: %s did not load; see the above", fn.spec.name, fn.spec.path)


def _routes(
    emulator: Emulator, env: Mapping[str, str], static_dir: str | Path | None
) -> list[BaseRoute]:
    """Health, the WebSocket and Management APIs, the web client, the test-mode push
    receiver, and last the REST API, which takes every other path."""
    management = emulator.websocket_api.management
    routes: list[BaseRoute] = [
        Route("/health", emulator.health, methods=["GET"]),
        Route("/@functions/environment", emulator.configure, methods=["PUT"]),
        *emulator.deploy_apis.routes(),
        WebSocketRoute("/ws", emulator.websocket_api.websocket),
        Route("/@connections/{connection_id}", management, methods=MANAGEMENT_METHODS),
        # The deployed endpoint carries the stage; accept that form too.
        Route("/{stage}/@connections/{connection_id}", management, methods=MANAGEMENT_METHODS),
    ]
    if static_dir is not None and Path(static_dir).is_dir():
        routes += [
            Route("/play", _to_play, methods=["GET", "HEAD"]),
            # Compressed, ETagged, with Cache-Control (client_files.py): as CloudFront serves it.
            *client_routes("/play/docs", REPOSITORY / "docs"),
            *client_routes("/play", static_dir, generated=generated_files(static_dir)),
        ]
    push_prefix = env.get("LOCAL_PUSH_PREFIX")
    if push_prefix and env.get("TEST_MODE", "").lower() in ("1", "true", "yes"):
        from harftet.localstack import mobile_push, push_receiver  # test mode only

        base = push_prefix.removesuffix(push_receiver.PREFIX)
        routes += mobile_push.routes()  # what reached a phone (moto's SNS endpoints)
        routes += push_receiver.routes(base, env.get("VAPID_PRIVATE_KEY"))
    routes.append(Route("/{path:path}", emulator.rest_api.proxy, methods=list(HTTP_METHODS)))
    return routes


async def _to_play(request: Request) -> Response:
    return RedirectResponse("/play/")
