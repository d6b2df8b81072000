"""The local stack: the Lambda handlers served over real HTTP and WebSocket, DynamoDB from moto.

Run it with `python -m harftet.localstack` (`make run`). The parts:
- emulator.py: API Gateway on one port (health, the sweeper's schedule, the event sources, the
  web client), with rest_api.py (the REST proxy), websocket_api.py (the WebSocket API and its
  Management API) and responses.py (a handler's result as an HTTP answer)
- runtime.py: Lambda execution environments (one process per concurrent invocation)
- lambda_events.py: the events and the context the handlers receive
- template.py: routes, gateway responses and function settings read from template.yaml
- dynamo.py: moto's server, with conditional writes made atomic
- environment.py: the handlers' environment, pointed at the local services
- stack.py: all of it together, in this process (`serve`); launcher.py: in a child process
  (`launch`)
"""
