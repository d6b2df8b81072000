"""The application, built once per container: each feature handed the ports it uses and
nothing more, made the first time a handler asks for it (a function imports only what it
uses: its cold start stays its own)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from functools import cached_property
from typing import Any

from harftet.identity import Tokens, sign_lead

from .aws import client
from .keyring import key_ring
from .settings import Settings

logger = logging.getLogger(__name__)
Sender = Callable[[str, dict[str, Any]], bool]


@dataclass(eq=False)
class App:
    """Every feature of the application over ``stores`` (`DynamoStores`, or fakes in tests),
    the clock (``clock()``: now, in epoch seconds), the WebSocket sender, the token signer
    (``signer``: one made here from the settings when None) and the AWS clients (``aws``:
    sqs, sns); ``hangup(connection_id)`` closes a WebSocket (DeleteConnection; None: this
    stack has no WebSocket API)."""

    settings: Settings
    stores: Any
    _: KW_ONLY
    clock: Callable[[], float] = time.time
    send: Sender | None = None
    hangup: Callable[[str], object] | None = None
    signer: Tokens | None = None
    sleep: Callable[[float], None] = time.sleep
    aws: Callable[[str], Any] = client

    @property
    def sender(self) -> Sender | None:
        """What the features post WebSocket messages through: the application's ``send`` as
        it is when they post (None: this stack has no WebSocket API)."""
        return self._post if self.send is not None else None

    def _post(self, connection_id: str, payload: dict[str, Any]) -> bool:
        assert self.send is not None
        return self.send(connection_id, payload)

    @cached_property
    def tokens(self) -> Tokens:
        """Signs and checks tokens (TOKEN_SECRET, or the SSM SecureString it names)."""
        if self.signer is not None:
            return self.signer
        secret = self.settings.token_secret
        if not secret:
            name = self.settings.token_secret_param
            if not name:
                raise RuntimeError("set TOKEN_SECRET or TOKEN_SECRET_PARAM")
            from aws_lambda_powertools.utilities.parameters import get_parameter

            secret = str(get_parameter(name, decrypt=True, max_age=3600))
        keys = self.settings.token_keys_param
        if not keys:
            return Tokens(secret)
        lead = sign_lead(self.settings.token_keys_seconds)  # every ring holds a key that signs
        ring = key_ring(keys, self.settings.token_keys_seconds, self.clock, self.aws)
        return Tokens(secret, keys=ring, lead=lead)

    @cached_property
    def callers(self) -> Any:
        """Who is calling: a token's player, if they still exist (harftet.accounts.callers)."""
        from harftet.accounts.callers import Callers

        return Callers(self.tokens, self.stores.players)

    # -- the tables ----------------------------------------------------------------------
    @cached_property
    def writer(self) -> Any:
        from harftet.leagues import LeagueRecords
        from harftet.profiles import GameRecords
        from harftet.skill import SkillRecords
        from harftet.tables.writer import TableWriter
        from harftet.tournaments import TournamentRecords

        s = self.stores
        hooks = (
            GameRecords(s.profiles), SkillRecords(s.players), LeagueRecords(s.leagues),
            TournamentRecords(),  # a tournament table's result, with its last version
        )  # fmt: skip

        def on_game_end(outcome: Any, now: float) -> list[Any]:
            """Profiles and boards, skill, the week's league: one transaction with the table."""
            return [write for hook in hooks for write in hook(outcome, now)]

        return TableWriter(s.tables, s.players, self.clock, on_game_end=on_game_end)

    @cached_property
    def tables(self) -> Any:
        from harftet.router import new_table_id
        from harftet.tables.service import Tables

        cell = self.settings.cell_id
        accounts = self.stores.accounts  # it notes every table a player sits at
        return Tables(
            self.writer,
            self.stores.tables,
            self.stores.players,
            self.tokens.mac,
            new_table_id=lambda: new_table_id(cell),
            test_mode=self.settings.test_mode,
            on_seated=accounts.remember_table if accounts is not None else None,
            on_listed=self.inbox.note if self.inbox is not None else None,
            answers=self.stores.answers,
        )

    @cached_property
    def hints(self) -> Any:
        from harftet.tables.hints import Hints

        return Hints(self.writer)

    @cached_property
    def records(self) -> Any:
        from harftet.tables.records import Records

        return Records(self.writer, self.stores.tables, self.stores.log, self.sleep)

    @cached_property
    def deadlines(self) -> Any:
        from harftet.tables.deadlines import Deadlines

        return Deadlines(self.writer, self.stores.tables)

    @cached_property
    def sockets(self) -> Any:
        from harftet.tables.sockets import Sockets

        s = self.stores
        return Sockets(self.writer, s.tables, s.connections, on_presence=self.presence.changed)

    @cached_property
    def forgetting(self) -> Any:
        from harftet.tables.forget import Forgetting

        return Forgetting(self.writer, self.stores.log, sleep=self.sleep)

    # -- players -------------------------------------------------------------------------
    @cached_property
    def guests(self) -> Any:
        from harftet.accounts.guests import Guests
        from harftet.router import new_player_id

        cell = self.settings.cell_id
        return Guests(self.stores.players, self.tokens, self.clock, lambda: new_player_id(cell))

    @cached_property
    def accounts(self) -> Any:
        from harftet.accounts.passkeys import config_from_env
        from harftet.accounts.service import ACCOUNT_BUDGETS, Accounts
        from harftet.limits import Limits

        limits = Limits(self.stores.counters, ACCOUNT_BUDGETS)  # always on: codes
        passkeys = config_from_env(self.settings.environ)
        return Accounts(self.stores.accounts, self.tokens, limits, passkeys, self.clock)

    @cached_property
    def data(self) -> Any:
        from harftet.accounts.data import PlayerData
        from harftet.leagues.service import GAMES as LEAGUE_GAMES

        s = self.stores

        def forget_tables(player_id: str, account: dict[str, Any]) -> None:
            if self.matchmaking is not None:  # searches for opponents first: never seated
                self.matchmaking.forget(player_id)
            tables = {*(account.get("tables") or ()), *self.tournaments.tables_of(player_id)}
            self.forgetting.forget(player_id, sorted(tables))

        def forget_endpoint(endpoint_arn: str) -> None:  # a device's SNS platform endpoint
            if self.mobile is not None:
                self.mobile.delete_endpoint(endpoint_arn)

        def hang_up(connection_id: str) -> None:  # her open sockets close at once
            if self.hangup is None:
                return
            try:
                self.hangup(connection_id)
            except Exception:  # the deletion stands; the socket's next push finds no item
                logger.exception("closing a deleted player's connection failed")

        def forget_counters(player_id: str, now: float) -> None:  # rate limits keyed by her
            for limits in (self.limits, self.accounts.limits, self.word_reports.limits):
                limits.forget(player_id, now)

        def leagues_of(player_id: str) -> list[dict[str, Any]]:  # her places, her entries
            found = [(game, s.leagues.of_player(game, player_id)) for game in LEAGUE_GAMES]
            return [{"game": game, **mine} for game, mine in found if mine is not None]

        def forget_leagues(player_id: str) -> None:  # out of every division, places gone
            for game in LEAGUE_GAMES:
                s.leagues.forget(game, player_id)

        return PlayerData(
            s.accounts, s.profiles, s.connections, s.inbox, self.clock,
            forget_tables=forget_tables, forget_friends=self.friends.forget_everyone,
            forget_endpoint=forget_endpoint, forget_counters=forget_counters, hangup=hang_up,
            leagues_of=leagues_of, forget_leagues=forget_leagues,
            tournaments_of=self.tournaments.of_player, forget_tournaments=self.tournaments.forget,
        )  # fmt: skip

    @cached_property
    def friends(self) -> Any:
        from harftet.friends import Friends

        s = self.stores
        return Friends(
            s.accounts, s.tables, s.connections, self.presence, self.sender, self.clock,
            notify_invitation=self.outbox.invitation, limits=self.limits,
            note_invited=self.inbox.note_invited if self.inbox is not None else None,
        )  # fmt: skip

    @cached_property
    def presence(self) -> Any:
        from harftet.presence import Presence

        s = self.stores
        return Presence(s.connections, s.tables, s.players, self.sender, self.clock)

    @cached_property
    def profiles(self) -> Any:
        from harftet.profiles import Profiles
        from harftet.skill import skill_part

        s = self.stores
        extras = (skill_part, self.leagues.profile_part, self.tournaments.profile_part)
        return Profiles(s.players, s.profiles, self.tokens.mac, self.clock, extras=extras)

    @cached_property
    def leagues(self) -> Any:
        from harftet.leagues import Leagues

        return Leagues(self.stores.leagues, self.clock)

    @cached_property
    def moderation(self) -> Any:
        from harftet.moderation import Moderation

        s = self.stores
        return Moderation(s.profiles, s.tables, self.clock, close_table=self.tables.close)

    @cached_property
    def phrases(self) -> Any:
        from harftet.phrases import Phrases

        s = self.stores
        return Phrases(
            s.tables, s.connections, s.counters, self.sender, self.clock,
            blocked_by=self.friends.blocked_by,
        )  # fmt: skip

    @cached_property
    def word_reports(self) -> Any:
        from harftet.limits import Limits
        from harftet.words.reports import REPORT_BUDGET, WordReports

        limits = Limits(self.stores.counters, {"wordReport": REPORT_BUDGET})  # always on
        return WordReports(self.stores.word_reports, limits, self.clock)

    @cached_property
    def limits(self) -> Any:
        """The operator's per-player budgets (LIMITS, LIMIT_BUDGETS)."""
        from harftet.limits import limits_from_env

        return limits_from_env(lambda: self.stores.counters, self.settings.environ)

    # -- matchmaking ---------------------------------------------------------------------
    @cached_property
    def matchmaking(self) -> Any:
        """Tickets of players looking for opponents (None: this stack has no match table)."""
        import secrets

        from harftet.matchmaking import Matchmaking, StoredSkills

        store = self.stores.matches
        if store is None:
            return None
        return Matchmaking(
            store, StoredSkills(self.stores.players), self.tables.occupant, self.friends.avoided,
            self.clock, lambda: secrets.token_urlsafe(12), test_mode=self.settings.test_mode,
        )  # fmt: skip

    @cached_property
    def matcher(self) -> Any:
        from harftet.matchmaking import Matcher
        from harftet.router import new_table_id

        cell = self.settings.cell_id
        accounts = self.stores.accounts
        return Matcher(
            self.stores.matches, self.stores.tables, self.clock, lambda: new_table_id(cell),
            self.friends.avoided, push=self._push_player,
            on_seated=accounts.remember_table if accounts is not None else None,
            test_mode=self.settings.test_mode,
        )  # fmt: skip

    def _push_player(self, player_id: str, message: dict[str, Any]) -> None:
        """``message`` to every open socket of the player (a gone one misses it)."""
        sender = self.sender
        if sender is None:
            return
        for connection in self.stores.connections.for_player(player_id):
            try:
                sender(str(connection["connectionId"]), message)
            except Exception:
                continue

    # -- tournaments -----------------------------------------------------------------------
    @cached_property
    def rounds(self) -> Any:
        """A tournament's rounds: started, seated, counted, finished (harftet.tournaments)."""
        from harftet.tournaments import Rounds

        return Rounds(
            self.stores.tournaments, self.stores.tables, self.clock, cell=self.settings.cell_id,
            push=self._push_seated, notify=self._notify_seated,
            test_mode=self.settings.test_mode,
        )  # fmt: skip

    def _push_seated(self, told: list[tuple[str, dict[str, Any]]]) -> None:
        """Each (player, message) to every open socket of the player: their sockets read in
        one BatchGetItem (a gone socket misses it)."""
        sender = self.sender
        if sender is None:
            return
        sockets = self.stores.connections.sockets_of([pid for pid, _ in told])
        for pid, message in told:
            for connection in sockets.get(pid, {}):
                try:
                    sender(connection, message)
                except Exception:
                    continue

    def _notify_seated(self, seated: list[tuple[str, dict[str, Any]]]) -> None:
        """Notifications (Web Push, mobile) that a round seated them, one queue batch (no
        queue: none)."""
        from harftet.notify import Notification

        if self.notify_queue is None or not seated:
            return
        keys = ("game", "name", "round", "tournamentId")
        self.notify_queue.send([
            Notification(pid, str(m["tableId"]), 1, "tournament", {k: m[k] for k in keys})
            for pid, m in seated
        ])  # fmt: skip

    @cached_property
    def tournaments(self) -> Any:
        from harftet.tournaments import Tournaments

        return Tournaments(
            self.stores.tournaments, self.rounds, self.tokens.mac, self.clock,
            self.tables.occupant, test_mode=self.settings.test_mode,
        )  # fmt: skip

    # -- the inbox and notifications -----------------------------------------------------
    @cached_property
    def inbox(self) -> Any:
        """Each player's tables (None where the stack keeps no mail table)."""
        from harftet.inbox import Inbox

        store = self.stores.inbox
        return Inbox(store, self.tokens.mac, self.clock) if store is not None else None

    @cached_property
    def notify_queue(self) -> Any:
        from harftet.queues import NotifyQueue

        url = self.settings.notify_queue_url
        return NotifyQueue(self.aws("sqs"), url) if url else None

    @cached_property
    def timer_queue(self) -> Any:
        from harftet.queues import TimerQueue

        url = self.settings.timer_queue_url
        return TimerQueue(self.aws("sqs"), url) if url else None

    @cached_property
    def outbox(self) -> Any:
        from harftet.notify.outbox import Outbox

        def connected(table_id: str) -> set[str]:
            return {str(c["playerId"]) for c in self.stores.connections.for_table(table_id)}

        record = self.inbox.record_versions if self.inbox is not None else None
        return Outbox(record, self.notify_queue, connected, self.clock, self.stores.inbox)

    @cached_property
    def mobile(self) -> Any:
        """SNS mobile push (None where no platform application is set up)."""
        from harftet.notify.deliver import MobilePush

        s = self.settings
        apps = {"fcm": s.fcm_application_arn, "apns": s.apns_application_arn}
        if not any(apps.values()):
            return None
        return MobilePush(self.aws("sns"), apps, apns_platform=s.apns_platform)

    def _local_push_prefix(self) -> str | None:
        """The local stack's own push receiver, allowed as an endpoint in test mode only."""
        prefix = self.settings.local_push_prefix
        return prefix if prefix and self.settings.test_mode else None

    @cached_property
    def subscriptions(self) -> Any:
        from harftet.notify import vapid
        from harftet.notify.subscriptions import Subscriptions

        s = self.settings
        return Subscriptions(
            self.stores.mail, self.clock, mobile=self.mobile,
            public_key=lambda: vapid.server_public_key(s.vapid_public_key, s.vapid_private_key),
            local_prefix=self._local_push_prefix(),
        )  # fmt: skip

    @cached_property
    def notifier(self) -> Any:
        from harftet.notify import vapid
        from harftet.notify.deliver import Notifier, WebPush

        s = self.settings
        key = vapid.private_key(s.vapid_private_key, s.vapid_private_key_param)
        web = None
        if key:
            web = WebPush(lambda: key, s.vapid_subject, local_prefix=self._local_push_prefix())

        def requeue(notification: Any, delay: int) -> None:
            if self.notify_queue is not None:
                self.notify_queue.send([notification], delay)

        return Notifier(
            self.stores.mail, self.stores.inbox, web, self.mobile, requeue, self.clock,
            self._name_of,
        )  # fmt: skip

    def _name_of(self, player_id: str) -> str | None:
        try:
            return str(self.stores.players.get(player_id)["name"])
        except Exception:
            return None

    # -- the stream and the timers -------------------------------------------------------
    @cached_property
    def publisher(self) -> Any:
        from harftet.fanout import Publisher

        return Publisher(
            self.stores.connections, self.sender, self.clock, log=self.stores.log,
            timers=self.timer_queue, outbox=self.outbox, disconnect=self.sockets.disconnect,
            on_seating=self._seating_changed,
        )  # fmt: skip

    def _seating_changed(self, before: Any, after: Any) -> None:
        """Presence (friends see who sits down), and a finished tournament table counted."""
        self.presence.seating_changed(before, after)
        if after.status == "finished" and (before is None or before.status != "finished"):
            try:  # the schedule counts it and starts the round if this fails: never retried
                self.rounds.table_ended(after)
            except Exception:
                logger.exception("a tournament table's end", extra={"tableId": after.table_id})

    @cached_property
    def firing(self) -> Any:
        from harftet.timers import TimerFiring

        return TimerFiring(self.deadlines.advance, self.timer_queue, self.clock)
