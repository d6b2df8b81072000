"""The API documents a client developer generates from: docs/openapi.json (openapi/, the REST
API) and docs/asyncapi.yaml (asyncapi/, the WebSocket protocol and the notifications).

They are read from the request models of api/, accounts/ and words/, which do not read them
(except rest/methods.py, whose 405 answers take each path's methods from the OpenAPI
document).
"""
