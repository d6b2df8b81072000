"""template.yaml's optional web client hosting: a private bucket, CloudFront, headers, a CSP."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from harftet.store.schema import load_template

REPO = Path(__file__).resolve().parents[1]
STATIC = REPO / "clients" / "web"
WEB = (
    "WebClientBucket",
    "WebClientOriginAccessControl",
    "WebClientHeaders",
    "WebClientCachePolicy",
    "WebClientDistribution",
    "WebClientBucketPolicy",
)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template(REPO / "template.yaml")


def _props(template: dict[str, Any], name: str) -> dict[str, Any]:
    props: dict[str, Any] = template["Resources"][name]["Properties"]
    return props


def _csp(template: dict[str, Any]) -> dict[str, list[str]]:
    config = _props(template, "WebClientHeaders")["ResponseHeadersPolicyConfig"]
    value = config["SecurityHeadersConfig"]["ContentSecurityPolicy"]["ContentSecurityPolicy"]
    text = value["Fn::Sub"] if isinstance(value, dict) else value
    policy = {}
    for part in text.split(";"):
        words = part.split()
        if words:
            policy[words[0]] = words[1:]
    return policy


def test_the_web_client_is_off_by_default_and_one_parameter_adds_all_of_it(
    template: dict[str, Any],
) -> None:
    assert template["Parameters"]["WebClient"]["Default"] == "false"
    assert template["Conditions"]["WebClientOn"] == {"Fn::Equals": [{"Ref": "WebClient"}, "true"]}
    for name in WEB:
        assert template["Resources"][name]["Condition"] == "WebClientOn", name
    for name in ("WebClientUrl", "WebClientBucketName"):
        assert template["Outputs"][name]["Condition"] == "WebClientOn", name


def test_the_bucket_is_private_encrypted_and_readable_only_by_this_distribution(
    template: dict[str, Any],
) -> None:
    bucket = _props(template, "WebClientBucket")
    assert set(bucket["PublicAccessBlockConfiguration"].values()) == {True}
    assert len(bucket["PublicAccessBlockConfiguration"]) == 4
    assert bucket["OwnershipControls"]["Rules"] == [{"ObjectOwnership": "BucketOwnerEnforced"}]
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"]
    statements = _props(template, "WebClientBucketPolicy")["PolicyDocument"]["Statement"]
    allows = [s for s in statements if s["Effect"] == "Allow"]
    assert len(allows) == 1
    (read,) = allows
    assert read["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert read["Action"] == "s3:GetObject"  # read only: no listing, no writing
    source = read["Condition"]["StringEquals"]["AWS:SourceArn"]["Fn::Sub"]
    assert source.endswith(":distribution/${WebClientDistribution}")
    denies = [s for s in statements if s["Effect"] == "Deny"]
    assert denies and denies[0]["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}


def test_the_distribution_serves_https_only_compressed_through_origin_access_control(
    template: dict[str, Any],
) -> None:
    config = _props(template, "WebClientDistribution")["DistributionConfig"]
    (origin,) = config["Origins"]
    assert origin["OriginAccessControlId"] == {"Fn::GetAtt": ["WebClientOriginAccessControl", "Id"]}
    assert origin["S3OriginConfig"]["OriginAccessIdentity"] == ""  # OAC, not the legacy OAI
    oac = _props(template, "WebClientOriginAccessControl")["OriginAccessControlConfig"]
    assert (oac["SigningBehavior"], oac["SigningProtocol"]) == ("always", "sigv4")
    behavior = config["DefaultCacheBehavior"]
    assert behavior["ViewerProtocolPolicy"] == "redirect-to-https"
    assert behavior["Compress"] is True
    assert behavior["AllowedMethods"] == ["GET", "HEAD"]
    assert behavior["ResponseHeadersPolicyId"] == {"Ref": "WebClientHeaders"}
    assert config["DefaultRootObject"] == "index.html"
    assert behavior["CachePolicyId"] == {"Ref": "WebClientCachePolicy"}
    keys = _props(template, "WebClientCachePolicy")["CachePolicyConfig"]
    forwarded = keys["ParametersInCacheKeyAndForwardedToOrigin"]
    assert forwarded["EnableAcceptEncodingGzip"] and forwarded["EnableAcceptEncodingBrotli"]
    assert keys["MinTTL"] == 0  # a file sent with no-cache is revalidated every time


def test_security_headers_are_set_and_the_csp_lets_the_page_reach_only_this_stacks_apis(
    template: dict[str, Any],
) -> None:
    headers = _props(template, "WebClientHeaders")["ResponseHeadersPolicyConfig"]
    security = headers["SecurityHeadersConfig"]
    assert security["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31536000
    assert security["FrameOptions"]["FrameOption"] == "DENY"
    assert "ContentTypeOptions" in security
    csp = _csp(template)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no inline script, no eval
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    connect = csp["connect-src"]
    assert connect[0] == "'self'"
    assert any(c.startswith("https://${RestApi}.execute-api.") for c in connect), connect
    assert any(c.startswith("wss://${WebSocketApi}.execute-api.") for c in connect), connect
    assert len(connect) == 3, connect


@pytest.mark.parametrize("page", ["index.html", "rules.html"])
def test_the_client_pages_run_under_that_csp(page: str) -> None:
    """No inline script, no <style> block or style attribute, nothing from another origin."""
    html = (STATIC / page).read_text(encoding="utf-8")
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"""(src|href)=["']https?://""", html)
    scripts = " ".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    assert "eval(" not in scripts
    assert "new Function" not in scripts
    assert 'setAttribute("style"' not in scripts


def test_the_upload_step_and_its_cost_are_documented() -> None:
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^web-deploy:", makefile, re.M)
    deploy = (REPO / "docs" / "DEPLOY.md").read_text(encoding="utf-8")
    section = deploy.split("## The web client", 1)[1].split("\n## ", 1)[0]
    for needed in ("WebClient=true", "make web-deploy", "AllowedOrigins", "config.json", "USD"):
        assert needed in section, needed
