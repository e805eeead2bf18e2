"""The codes of problem answers: what each means, and that the spec lists each."""

from __future__ import annotations


async def test_a_missing_parameter_is_invalid_parameter_not_invalid_body(client):
    r = await client.get("/v1/games/Kz3qX9aB2cD4/replay")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_parameter")
    assert "seq" in r.json()["detail"]
    r = await client.post("/v1/games", content=b"{", headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_body")
