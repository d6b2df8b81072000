"""What a failing socket makes of the synthetic game (harftet.probe.play_with_computer): a
refused connection, a refused move, a push that never comes each end the game as failed, with
the reason. The game played for real, on the local stack: tests/e2e/test_synthetic_game.py."""

from __future__ import annotations

import json
from typing import Any

from harftet.probe import play_with_computer


def test_a_socket_that_cannot_be_opened_fails_the_game_and_says_why() -> None:
    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        answers = {
            "/players": (201, {"token": "t"}),
            "/tables": (201, {"tableId": "x"}),
            "/tables/x/seats/1": (200, {}),
            "/tables/x/ticket": (201, {"ticket": "k"}),
        }
        return answers[path]

    def refused(url: str) -> Any:
        raise ConnectionRefusedError(111, "Connection refused")

    result = play_with_computer(call, refused, "ws://127.0.0.1:9/ws")
    assert result["ok"] is False and result["moves"] == 0
    assert "ConnectionRefusedError" in result["error"]


class Socket:
    """Pushes a view per change; answers a move with an error (a version gone stale)."""

    def __init__(self, pushes: list[dict[str, Any]]) -> None:
        self.pushes = pushes
        self.sent: list[dict[str, Any]] = []
        self.closed = False

    def send(self, message: str) -> None:
        self.sent.append(json.loads(message))

    def recv(self, timeout: float | None = None) -> str:
        if not self.pushes:
            raise TimeoutError("timed out while waiting for a push")
        return json.dumps(self.pushes.pop(0))

    def close(self) -> None:
        self.closed = True


def test_a_move_refused_on_the_socket_fails_the_game_and_the_socket_is_closed() -> None:
    view = {"tableId": "x", "version": 3, "status": "playing", "turn": {"seat": 0}}

    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        answers = {
            "/players": (201, {"token": "t"}),
            "/tables": (201, {"tableId": "x"}),
            "/tables/x/seats/1": (200, {}),
            "/tables/x/ticket": (201, {"ticket": "k"}),
            "/tables/x/start": (200, view),
        }
        return answers[path]

    socket = Socket([{"type": "error", "error": {"code": "version_conflict"}}])
    result = play_with_computer(call, lambda url: socket, "ws://stack/ws")
    assert result["ok"] is False and "version_conflict" in result["error"]
    assert socket.sent[0] == {**socket.sent[0], "action": "move", "tableId": "x", "version": 3}
    assert socket.closed


def test_a_push_that_never_comes_fails_the_game() -> None:
    view = {"tableId": "x", "version": 3, "status": "playing", "turn": {"seat": 1}}

    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        answers = {
            "/players": (201, {"token": "t"}),
            "/tables": (201, {"tableId": "x"}),
            "/tables/x/seats/1": (200, {}),
            "/tables/x/ticket": (201, {"ticket": "k"}),
            "/tables/x/start": (200, view),
        }
        return answers[path]

    result = play_with_computer(call, lambda url: Socket([]), "ws://stack/ws")
    assert result["ok"] is False and "TimeoutError" in result["error"]
    assert result["computerMoves"] == 0
