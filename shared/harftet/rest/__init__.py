"""The REST API's routes, a powertools Router per feature; functions/rest/app.py includes
them all under its one error handler. Each route parses, calls one feature, replies."""

from aws_lambda_powertools.event_handler.router import APIGatewayRouter

from . import accounts, leagues, mail, operator, people, players, tables, texts, words

ROUTERS: tuple[APIGatewayRouter, ...] = tuple(
    module.router
    for module in (texts, players, tables, people, accounts, mail, words, operator, leagues)
)

__all__ = ["ROUTERS"]
