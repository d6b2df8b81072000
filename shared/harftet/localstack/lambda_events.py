"""Builders of the events API Gateway, EventBridge and Lambda's event source mappings hand to
Lambda, and a fake Lambda context.

The shapes follow what AWS sends (and `sam local generate-event` prints): the REST proxy
integration's v1 payload, the WebSocket API's $connect/$default/$disconnect events, an
EventBridge scheduled event, a DynamoDB stream batch (`dynamodb update`) and an SQS batch
(`sqs receive-message`).
"""

from __future__ import annotations

import base64
import secrets
import string
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

ACCOUNT_ID = "123456789012"
REGION = "us-east-1"
API_ID = "local"
STAGE = "local"

_ID_ALPHABET = string.ascii_letters + string.digits


def new_connection_id() -> str:
    """A fresh connection id shaped like API Gateway's (13 base64-ish characters ending in '=')."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(12)) + "="


def _epoch_ms() -> int:
    return int(time.time() * 1000)


def _request_time(epoch_ms: int) -> str:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")


def _single_and_multi(
    pairs: Iterable[tuple[str, str]],
) -> tuple[dict[str, str] | None, dict[str, list[str]] | None]:
    """API Gateway's two views of repeated keys: the last value and all values (None if empty)."""
    multi: dict[str, list[str]] = {}
    for key, value in pairs:
        multi.setdefault(key, []).append(value)
    if not multi:
        return None, None
    return {key: values[-1] for key, values in multi.items()}, multi


def encode_body(body: bytes) -> tuple[str | None, bool]:
    """The event's body and isBase64Encoded flag: text when the bytes are UTF-8, else base64."""
    if not body:
        return None, False
    try:
        return body.decode("utf-8"), False
    except UnicodeDecodeError:
        return base64.b64encode(body).decode("ascii"), True


_IDENTITY_KEYS = [
    "cognitoIdentityPoolId",
    "accountId",
    "cognitoIdentityId",
    "caller",
    "accessKey",
    "principalOrgId",
    "cognitoAuthenticationType",
    "cognitoAuthenticationProvider",
    "userArn",
    "user",
    "apiKey",
    "apiKeyId",
]


def _identity(source_ip: str, user_agent: str | None, user_arn: str | None) -> dict[str, Any]:
    identity: dict[str, Any] = dict.fromkeys(_IDENTITY_KEYS)
    identity.update(sourceIp=source_ip, userAgent=user_agent)
    if user_arn is not None:  # an IAM-signed caller, as API Gateway names it
        identity.update(userArn=user_arn, accountId=ACCOUNT_ID, user=user_arn.rsplit("/", 1)[-1])
    return identity


def rest_event(
    *,
    method: str,
    path: str,
    headers: Iterable[tuple[str, str]] = (),
    query: Iterable[tuple[str, str]] = (),
    body: bytes = b"",
    source_ip: str = "127.0.0.1",
    host: str = "127.0.0.1",
    stage: str = STAGE,
    resource: str | None = None,
    path_parameters: dict[str, str] | None = None,
    user_arn: str | None = None,
) -> dict[str, Any]:
    """An API Gateway REST proxy-integration (payload v1) event; by default for `ANY /{proxy+}`.
    ``user_arn``: the IAM caller of a method that takes AWS_IAM signatures."""
    header_pairs = list(headers)
    single_headers, multi_headers = _single_and_multi(header_pairs)
    single_query, multi_query = _single_and_multi(query)
    text, is_base64 = encode_body(body)
    now = _epoch_ms()
    request_id = str(uuid.uuid4())
    if resource is None:
        # `/` is its own resource in API Gateway; every other path reaches the greedy proxy.
        resource = "/" if path == "/" else "/{proxy+}"
        path_parameters = None if path == "/" else {"proxy": path.lstrip("/")}
    user_agent = (single_headers or {}).get("user-agent") or (single_headers or {}).get(
        "User-Agent"
    )
    return {
        "resource": resource,
        "path": path,
        "httpMethod": method,
        "headers": single_headers,
        "multiValueHeaders": multi_headers,
        "queryStringParameters": single_query,
        "multiValueQueryStringParameters": multi_query,
        "pathParameters": path_parameters,
        "stageVariables": None,
        "requestContext": {
            "accountId": ACCOUNT_ID,
            "apiId": API_ID,
            "resourceId": "proxy",
            "resourcePath": resource,
            "httpMethod": method,
            "stage": stage,
            # No stage prefix: locally the API is served at the root, as behind a custom domain.
            "path": path,
            "protocol": "HTTP/1.1",
            "requestId": request_id,
            "extendedRequestId": request_id,
            "requestTime": _request_time(now),
            "requestTimeEpoch": now,
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "identity": _identity(source_ip, user_agent, user_arn),
        },
        "body": text,
        "isBase64Encoded": is_base64,
    }


_EVENT_TYPES = {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}


def ws_event(
    route_key: str,
    connection_id: str,
    *,
    connected_at: int,
    body: bytes | str | None = None,
    headers: Iterable[tuple[str, str]] = (),
    query: Iterable[tuple[str, str]] = (),
    source_ip: str = "127.0.0.1",
    host: str = "127.0.0.1",
    stage: str = STAGE,
    disconnect_status: int | None = None,
) -> dict[str, Any]:
    """An API Gateway WebSocket event for $connect, $disconnect or a message route ($default)."""
    now = _epoch_ms()
    event_type = _EVENT_TYPES.get(route_key, "MESSAGE")
    headers = list(headers)
    user_agent = dict((k.lower(), v) for k, v in headers).get("user-agent")
    context: dict[str, Any] = {
        "routeKey": route_key,
        "eventType": event_type,
        "extendedRequestId": str(uuid.uuid4()),
        "requestTime": _request_time(now),
        "messageDirection": "IN",
        "stage": stage,
        "connectedAt": connected_at,
        "requestTimeEpoch": now,
        "identity": {"sourceIp": source_ip, "userAgent": user_agent},
        "requestId": str(uuid.uuid4()),
        "domainName": host,
        "connectionId": connection_id,
        "apiId": API_ID,
    }
    event: dict[str, Any] = {"requestContext": context, "isBase64Encoded": False}
    if event_type == "MESSAGE":
        context["messageId"] = secrets.token_urlsafe(9)
        if isinstance(body, bytes):
            text, is_base64 = encode_body(body)
            event.update(body=text, isBase64Encoded=is_base64)
        else:
            event["body"] = body
    if event_type == "CONNECT":
        single_headers, multi_headers = _single_and_multi(headers)
        single_query, multi_query = _single_and_multi(query)
        event.update(
            headers=single_headers,
            multiValueHeaders=multi_headers,
            queryStringParameters=single_query,
            multiValueQueryStringParameters=multi_query,
        )
    if event_type == "DISCONNECT":
        event["headers"] = {"Host": host, "x-api-key": "", "x-restapi": ""}
        context["disconnectStatusCode"] = disconnect_status
        context["disconnectReason"] = ""
    return event


def scheduled_event(rule: str = "harftet-sweep") -> dict[str, Any]:
    """An EventBridge scheduled event, as `sam local generate-event cloudwatch scheduled-event`."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": ACCOUNT_ID,
        "time": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "region": REGION,
        "resources": [f"arn:aws:events:{REGION}:{ACCOUNT_ID}:rule/{rule}"],
        "detail": {},
    }


def _json_attribute(value: dict[str, Any]) -> dict[str, Any]:
    """A boto3 attribute value as Lambda's JSON event carries it (binary base64-encoded)."""
    [(kind, inner)] = value.items()
    if kind == "B":
        return {"B": base64.b64encode(inner).decode("ascii")}
    if kind == "BS":
        return {"BS": [base64.b64encode(b).decode("ascii") for b in inner]}
    if kind == "M":
        return {"M": {k: _json_attribute(v) for k, v in inner.items()}}
    if kind == "L":
        return {"L": [_json_attribute(v) for v in inner]}
    return {kind: inner}


def _json_image(image: dict[str, Any]) -> dict[str, Any]:
    return {k: _json_attribute(v) for k, v in image.items()}


def dynamodb_stream_event(records: Iterable[dict[str, Any]], stream_arn: str) -> dict[str, Any]:
    """Lambda's event for a batch of DynamoDB stream records (from GetRecords, as boto3 gives
    them), as `sam local generate-event dynamodb update` shapes it."""
    out = []
    for record in records:
        data = record["dynamodb"]
        created = data.get("ApproximateCreationDateTime")
        if isinstance(created, datetime):
            created = int(created.timestamp())
        body: dict[str, Any] = {"ApproximateCreationDateTime": created, "Keys": data["Keys"]}
        for image in ("NewImage", "OldImage"):
            if image in data:
                body[image] = _json_image(data[image])
        body["Keys"] = _json_image(data["Keys"])
        body.update(
            SequenceNumber=data["SequenceNumber"],
            SizeBytes=data.get("SizeBytes", 0),
            StreamViewType=data.get("StreamViewType", "NEW_IMAGE"),
        )
        out.append(
            {
                "eventID": record.get("eventID") or uuid.uuid4().hex,
                "eventName": record["eventName"],
                "eventVersion": "1.1",
                "eventSource": "aws:dynamodb",
                "awsRegion": record.get("awsRegion") or REGION,
                "dynamodb": body,
                "eventSourceARN": stream_arn,
            }
        )
    return {"Records": out}


def sqs_event(messages: Iterable[dict[str, Any]], queue_arn: str) -> dict[str, Any]:
    """Lambda's event for a batch of SQS messages (from ReceiveMessage), as `sam local
    generate-event sqs receive-message` shapes it."""
    out = []
    for message in messages:
        attributes = message.get("Attributes") or {}
        out.append(
            {
                "messageId": message["MessageId"],
                "receiptHandle": message["ReceiptHandle"],
                "body": message["Body"],
                "attributes": {
                    "ApproximateReceiveCount": attributes.get("ApproximateReceiveCount", "1"),
                    "SentTimestamp": attributes.get("SentTimestamp", str(_epoch_ms())),
                    "SenderId": attributes.get("SenderId", ACCOUNT_ID),
                    "ApproximateFirstReceiveTimestamp": attributes.get(
                        "ApproximateFirstReceiveTimestamp", str(_epoch_ms())
                    ),
                },
                "messageAttributes": {},
                "md5OfBody": message.get("MD5OfBody", ""),
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": REGION,
            }
        )
    return {"Records": out}


@dataclass
class FakeLambdaContext:
    """The attributes of the Python runtime's LambdaContext that powertools and handlers read."""

    function_name: str
    timeout_seconds: float = 30.0
    memory_limit_in_mb: int = 512
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    identity: Any = None
    client_context: Any = None
    _started: float = field(default_factory=time.monotonic, repr=False)

    @property
    def invoked_function_arn(self) -> str:
        """The ARN the function was invoked by."""
        return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{self.function_name}"

    @property
    def log_group_name(self) -> str:
        """The CloudWatch log group the function would write to."""
        return f"/aws/lambda/{self.function_name}"

    @property
    def log_stream_name(self) -> str:
        """A log stream name in the runtime's format."""
        day = datetime.now(UTC).strftime("%Y/%m/%d")
        return f"{day}/[{self.function_version}]{self.aws_request_id.replace('-', '')}"

    def get_remaining_time_in_millis(self) -> int:
        """Milliseconds left before the (not enforced) timeout."""
        elapsed = time.monotonic() - self._started
        return max(0, int((self.timeout_seconds - elapsed) * 1000))
