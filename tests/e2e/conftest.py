"""Fixtures for end-to-end tests over the local stack: real HTTP and WebSocket, moto DynamoDB.

- `local_stack`: the base URL (`http://127.0.0.1:PORT`) of a stack running the real handlers
  (functions/*/app.py), started once per test session (once per xdist worker). The WebSocket
  is at `local_stack.replace("http", "ws") + "/ws"`.
- `local_stack_info`: the same stack as a `RunningStack`: `.ws_url`, `.dynamodb_endpoint`,
  `.env` (the handlers' environment, TOKEN_SECRET included) and `.log_tail()`.
- `stack_factory`: start another stack, e.g. `stack_factory(rest_handler=path, env={...})`
  (arguments of `harftet.localstack.launcher.launch`); its stacks are stopped when the module
  ends.

Each stack is a child process (`python -m harftet.localstack --port 0`) so that its moto state
never meets the in-process `mock_aws` of other tests. When an e2e test fails, the end of each
stack's log is attached to the report.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from harftet.localstack.launcher import RunningStack, launch

# The stacks of the tests play no synthetic game unless a test asks (test_synthetic_game.py):
# a game every 5 minutes in the session's stack would add players and tables other tests see.
os.environ.setdefault("SYNTHETIC_SECONDS", "0")
# Nor do they rotate signing keys (test_key_rotation_stack.py does): with a rotation, every
# function reads the key ring from moto's SSM, whose first request takes ~2 s.
os.environ.setdefault("KEY_ROTATION_SECONDS", "0")

# A browser assertion waits as long as a page's actions do (Tab: 10 s). On a busy two-core CI
# machine a function worker's first request can take longer than Playwright's default 5 s:
# a friend request sent at 10:01:52 had not been answered by 10:01:58 at a load average of 18.
expect.set_options(timeout=10_000)

_started: list[RunningStack] = []

StackFactory = Callable[..., RunningStack]


@contextmanager
def _stacks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StackFactory]:
    """A launcher of local stacks on free ports; all it started are stopped on exit."""
    mine: list[RunningStack] = []

    def start(name: str = "stack", **options: Any) -> RunningStack:
        stack = launch(tmp_path_factory.mktemp(name), **options)
        mine.append(stack)
        _started.append(stack)
        return stack

    try:
        yield start
    finally:
        for stack in mine:
            # Its data is memory only: after 3 s of a graceful stop (open sockets get 5 s
            # of it), the process group is killed. test_emulator checks a clean Ctrl-C.
            if stack in _started:
                stack.stop(timeout=3)
                _started.remove(stack)


@pytest.fixture(scope="module")
def stack_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StackFactory]:
    """Start local stacks; they are stopped when the module's tests are done.

    Why not at the end of the session: an idle stack still polls its stream and queues (a
    tenth of a core each), and a session keeping every module's stacks ran six of them at
    once on CI's two cores.
    """
    with _stacks(tmp_path_factory) as start:
        yield start


@pytest.fixture(scope="session")
def local_stack_info(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[RunningStack]:
    """The session's stack with the real handlers and template.yaml's routes; stopped as
    soon as no e2e test is left to run in this process (`StopAfterTheLastE2eTest`)."""
    with _stacks(tmp_path_factory) as start:
        stack = start("local-stack")
        plugin = StopAfterTheLastE2eTest(stack) if _in_order(pytestconfig) else None
        if plugin is not None:
            pytestconfig.pluginmanager.register(plugin)
        try:
            yield stack
        finally:
            if plugin is not None:
                pytestconfig.pluginmanager.unregister(plugin)


@pytest.fixture(scope="session")
def local_stack(local_stack_info: RunningStack) -> str:
    """Base URL of the session's stack with the real handlers."""
    return local_stack_info.base_url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Attach the local stacks' logs to a failed e2e test's report."""
    report = yield
    if report.failed and item.get_closest_marker("e2e") is not None:
        for stack in _started:
            report.sections.append((f"local stack log ({stack.base_url})", stack.log_tail()))
    return report


def _in_order(config: pytest.Config) -> bool:
    """Whether this process runs its tests in collection order: alone, or handed whole files
    in that order (`make test`: xdist's --dist loadfile --no-loadscope-reorder)."""
    if not getattr(config.option, "numprocesses", None):
        return True
    dist = getattr(config.option, "dist", "no")
    return dist in ("loadfile", "loadscope") and not config.option.loadscopereorder


class StopAfterTheLastE2eTest:
    """Stops the session's stack once the next test comes after the last e2e test in the
    collection order: in tests run in that order (`_in_order`), none is left to need it.

    Why: the stack keeps polling its stream and queues and plays out the tables tests left
    to the computer players. In `make test` each worker kept its stack through the last
    ~280 s of a 1,190 s run (24 %, the unit tests), at 4 % of a core idle and more busy.
    """

    def __init__(self, stack: RunningStack) -> None:
        self.stack = stack
        self.order: dict[int, int] = {}
        self.last = -1

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        result = yield
        if nextitem is not None and self.stack in _started:
            if not self.order:
                here = Path(__file__).parent
                items = item.session.items  # every process collects every test
                self.order = {id(it): i for i, it in enumerate(items)}
                self.last = max(
                    (i for i, it in enumerate(items) if it.path.is_relative_to(here)), default=-1
                )
            if self.order.get(id(nextitem), -1) > self.last:
                self.stack.stop(timeout=3)
                _started.remove(self.stack)
        return result
