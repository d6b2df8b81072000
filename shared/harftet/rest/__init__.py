"""The REST API's routes, a powertools Router per feature; functions/rest/app.py includes
them all under its one error handler. Each route parses, calls one feature, replies."""

from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from . import (
    accounts,
    leagues,
    mail,
    matchmaking,
    operator,
    people,
    players,
    tables,
    texts,
    tournaments,
    words,
)

_MODULES = (
    texts, players, tables, people, accounts, mail, words, matchmaking, operator, leagues,
    tournaments,
)  # fmt: skip
ROUTERS: tuple[APIGatewayRouter, ...] = tuple(module.router for module in _MODULES)

__all__ = ["ROUTERS"]
