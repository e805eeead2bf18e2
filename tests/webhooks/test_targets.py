"""Where a webhook may be delivered (service/jobs/webhook_targets.py): http(s) only, never to
loopback, private, link-local (the metadata service), multicast or reserved addresses unless
the operator allows loopback and private networks, and never to the cloud's metadata
address even then; the connection goes to the address that was checked."""

from __future__ import annotations

import pytest

from service.jobs.webhook_targets import Refused, allowed, parse, resolve


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.com/hook", "only http and https"),
        ("http:///hook", "no host"),
        ("https://user:secret@example.com/hook", "user or password"),
        ("https://example.com/hook#part", "fragment"),
        ("https://example.com:99999/", "not a URL"),
        ("https://example.com/" + "a" * 2100, "longer than"),
    ],
)
def test_a_url_that_may_not_receive_webhooks(url: str, why: str):
    with pytest.raises(Refused, match=why):
        parse(url)


@pytest.mark.parametrize(
    ("address", "public", "private"),
    [
        ("93.184.216.34", True, True),
        ("2606:2800:220:1:248:1893:25c8:1946", True, True),
        ("127.0.0.1", False, True),
        ("::1", False, True),
        ("10.1.2.3", False, True),
        ("192.168.0.7", False, True),
        ("fd00::7", False, True),
        ("::ffff:127.0.0.1", False, True),
        ("169.254.169.254", False, False),  # the metadata service, even in development
        ("fe80::1", False, False),
        ("0.0.0.0", False, False),
        ("224.0.0.1", False, False),
        ("240.0.0.1", False, False),
    ],
)
def test_which_addresses_a_delivery_may_reach(address: str, public: bool, private: bool):
    assert allowed(address, private=False) is public
    assert allowed(address, private=True) is private


async def test_a_name_is_checked_by_every_address_it_resolves_to():
    with pytest.raises(Refused, match=r"resolves to (127\.0\.0\.1|::1)"):
        await resolve("http://localhost:8080/hook", private=False)
    with pytest.raises(Refused, match=r"127\.0\.0\.1"):
        await resolve("http://127.0.0.1:9/hook", private=False)
    with pytest.raises(Refused, match="does not resolve"):
        await resolve("https://no-such-host.invalid/hook", private=True)


async def test_the_connection_goes_to_the_address_checked_with_the_name_kept():
    target = await resolve("http://127.0.0.1:8080/hook?x=1", private=True)
    assert target.url == "http://127.0.0.1:8080/hook?x=1"
    assert target.host_header == "127.0.0.1:8080" and target.server_name is None
    target = await resolve("https://93.184.216.34/in", private=False)
    assert target.url == "https://93.184.216.34:443/in"
    assert target.host_header == "93.184.216.34" and target.server_name == "93.184.216.34"
    target = await resolve("http://[::1]:9000/", private=True)
    assert target.url == "http://[::1]:9000/" and target.host_header == "::1:9000"
