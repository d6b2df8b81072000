"""The local stack: the Lambda handlers served over real HTTP and WebSocket, DynamoDB from moto.

Run it with `python -m harftet.localstack` (`make run`). The parts:
- emulator.py: API Gateway (REST proxy, WebSocket API, Management API) and the sweeper's schedule
- runtime.py: Lambda execution environments (one process per concurrent invocation)
- lambda_events.py: the events and the context the handlers receive
- template.py: routes, gateway responses and function settings read from template.yaml
- dynamo.py: moto's server, with conditional writes made atomic
- stack.py: all of it together, in this process (`serve`) or a child process (`launch`)
"""
