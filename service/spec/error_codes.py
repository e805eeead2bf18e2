"""Every error `code` each operation can answer, by status, with what it means there: the
spec lists them (service/spec/openapi_spec.py: each status's description names its codes, and
service/spec/spec_examples.py gives an example answer of each), and tests/api holds the listing to
what the API suite meets (tests/api/problem_codes.py) and to every code the source can raise
(tests/api/test_problem_codes.py).

The games' own refusals are not written here: each game declares its codes, what they mean and
an example, beside the rules that give them (domain/<game>/rules.py, domain/kernel/errors.py),
and `REFUSED` collects them from the registry of games, so a new rule's code is listed without
a change here.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel import Refusal
from domain.registry import GAMES
from service.http.guards.clients import kind_of
from service.infra.config import Rates
from service.infra.errors import TITLES

UNKNOWN_GAME = "WdnYwZaxIdgq"  # the id an example's 404 names: no game has it


@dataclass(frozen=True)
class Code:
    meaning: str
    """What the code says, in the description of each status it is listed under."""
    detail: str
    """The example answer's `detail`, as the service words it."""
    seq: int | None = None


QUICK_PLAY_OPERATIONS = ("requestQuickPlay", "getQuickPlay", "cancelQuickPlay")
QUICK_PLAY_CALLER = {
    "player_token_required": Code(
        "Quick play is a registered player's: their token, or the app key that registered them.",
        "Quick play is a registered player's: send their token (Bearer dhp_...) or the app "
        "key that registered them.",
    ),
    "not_this_player": Code(
        "A player's token speaks for that player alone.",
        "A player's token speaks for that player alone.",
    ),
}

CODES: dict[str, Code] = {
    # 400
    "invalid_body": Code(
        "The body is not JSON, or not this operation's body: a value of the wrong type "
        '(`"3"` is not a number), an unknown field, a missing one.',
        "Expected `int`, got `str` - at `$.seats`",
    ),
    "invalid_parameter": Code(
        "A path, query or header parameter outside its schema (its type, its bounds, its "
        "pattern), or a required one missing.",
        "Validation failed for GET /v1/games?limit=0: limit: Expected `int` >= 1",
    ),
    "invalid_name": Code(
        "The name holds a refused character (control, format, private-use or unassigned), "
        "or nothing but spaces.",
        "A name may not hold format characters; U+200B is one.",
    ),
    "invalid_idempotency_key": Code(
        "Idempotency-Key is not 1 to 128 printable ASCII characters.",
        "Idempotency-Key: 1-128 printable chars.",
    ),
    "invalid_if_match": Code(
        "If-Match is not a seq.", "If-Match takes the game's seq, e.g. If-Match: 12."
    ),
    "invalid_cursor": Code(
        "`cursor` is not one this listing gave.", "That is not a cursor this lobby gave."
    ),
    "empty_export": Code(
        "The body holds no event.", "The body holds no event: send a game's export."
    ),
    "invalid_range": Code(
        "The sizes or indices asked for are not in order (or too many leaves at once).",
        "Ask with first <= second.",
    ),
    "beyond_log": Code(
        "A tree size or leaf index the log has not reached yet.",
        "The log is not that large yet.",
    ),
    # 401
    "token_missing": Code(
        "No token was sent: `Authorization: Bearer <token>`.",
        "Send your token as 'Authorization: Bearer ...'.",
    ),
    "token_invalid": Code(
        "The token is not one this service issued for this game (or was replaced), or "
        "`Authorization` is not `Bearer <token>`.",
        "That token is not valid for this game.",
    ),
    "key_missing": Code(
        "This server asks for an app key (DANGER_AUTH=keys).",
        "This server asks for an app key: send 'Authorization: Bearer dhk_...'.",
    ),
    "key_invalid": Code(
        "The app key sent is not one of this service's.", "That is not an app key of this service."
    ),
    "key_revoked": Code(
        "The app key sent was revoked.", "This app key was revoked; ask for a new one."
    ),
    "unknown_webhook": Code(
        "The app key sent has no webhook with that id.",
        "This app key has no webhook with that id.",
    ),
    "invalid_webhook_url": Code(
        "The URL may not receive webhooks: not http(s), with a user or a fragment, not "
        "resolving, or resolving to an address the server does not deliver to (loopback and "
        "private networks unless DANGER_WEBHOOK_PRIVATE; link-local, multicast and reserved "
        "ones never).",
        "http://127.0.0.1/hooks: 127.0.0.1 resolves to 127.0.0.1, a loopback, private, "
        "link-local or reserved address: webhooks go to the internet",
    ),
    "already_waiting": Code(
        "The player holds a quick-play request already: one at a time.",
        "This player waits for a game already (qp_4f2x9kq1ZyQm3w0b): cancel it first.",
    ),
    "quick_play_full": Code(
        "DANGER_QUICK_PLAY_WAITING requests wait for this kind of game already.",
        "1000 requests wait for danger: try later.",
    ),
    "not_waiting": Code(
        "The request is no longer waiting: seated, expired or cancelled.",
        "The request is seated, not waiting.",
    ),
    "unknown_request": Code(
        "No quick-play request has this id (or it ended more than 10 minutes ago).",
        "There is no quick-play request with that id.",
    ),
    "not_your_player": Code(
        "The app key sent did not register the player named.",
        "This app key did not register that player.",
    ),
    "player_missing": Code(
        "An app key asks on a player's behalf: name the player (`player`).",
        "With an app key, name the player (`player`) it is for.",
    ),
    "too_many_webhooks": Code(
        "The app key has DANGER_WEBHOOKS_PER_KEY webhooks already.",
        "the key has 10 webhook endpoints, as many as it may",
    ),
    "unknown_delivery": Code(
        "The webhook has no delivery with that id.", "This webhook has no delivery with that id."
    ),
    "delivery_queued": Code(
        "The delivery is still queued: it will be sent without a replay.",
        "The delivery is queued: it will be sent.",
    ),
    "player_token_invalid": Code(
        "The player token sent (`dhp_...`) is not one of this service's.",
        "That is not a player token of this service.",
    ),
    "player_token_required": Code(
        "Only the player, with their own token, opens their stream.",
        "Send the player's own token.",
    ),
    # 403
    "token_for_other_game": Code(
        "The token is another game's.", "That token belongs to another game."
    ),
    "admin_only": Code(
        "Only the game's admin token may do this.", "Only the game's admin token may do this."
    ),
    "seat_only": Code(
        "Only a seat's token sends game commands, not the admin's.",
        "Only a seat's token may send game commands.",
    ),
    "not_creator": Code(
        "The app key sent did not create the game: without the admin token, only the app key "
        "or address that created a game may abandon it.",
        "This app key did not create the game: only its admin token, or the app key or "
        "address that created it, may abandon it.",
    ),
    "sandbox_only": Code(
        "An option that fixes the order of the cards (`seed`; Danger's and High Voltage's "
        "`deck`; Danger 13's and Danger Danger's `stack`) on a server not started with "
        "DANGER_SANDBOX=1. A deck composition (Danger 13's and Danger Danger's `deck`) needs "
        "no sandbox.",
        "The option(s) seed are accepted only by a server started with DANGER_SANDBOX=1.",
    ),
    "not_this_player": Code(
        "A player token of another player: a player's stream is theirs alone.",
        "That token is another player's.",
    ),
    # 404
    "unknown_game": Code("No game has this id.", f"There is no game {UNKNOWN_GAME!r}."),
    "not_logged": Code(
        "No head of the game is in that tree yet.",
        f"No head of game {UNKNOWN_GAME!r} is in the tree of 12 leaves.",
    ),
    "no_such_event": Code("`seq` is beyond the game's last event.", "The game has 14 events."),
    "no_such_round": Code(
        "Round `n` has not been played (yet).", "Round 4 has not been played (yet)."
    ),
    "unknown_player": Code("No player has this id.", "No player has this id."),
    # 409, the service's
    "too_many_open_games": Code(
        "This client already holds the most open games allowed "
        "(DANGER_OPEN_GAMES_PER_CLIENT): start one, or let one end, first.",
        "This client already holds 10 open games (created, not started); start one, or "
        "wait until one ends, before creating another.",
    ),
    "idempotency_key_in_use": Code(
        "A request with this Idempotency-Key is still being answered: retry after `Retry-After`.",
        "A request with this Idempotency-Key is still being answered; retry.",
    ),
    "not_this_games_command": Code(
        "The command is another game's.", "'pick' is not a command of danger."
    ),
    "too_late": Code(
        "A turn clock ran out before the command arrived, and has taken effect: read the "
        "game again.",
        "A timer ran out before your command arrived and has taken effect: look at the game again.",
    ),
    # 409, the table's rules
    "game_not_open": Code("The game has started, or is over.", "This game has already started."),
    "game_not_active": Code(
        "The game is not being played: it has not started, or it is over.",
        "This game is open, not active.",
    ),
    "game_full": Code("Every seat is taken.", "Every seat of this game is taken."),
    "name_taken": Code(
        "A player at the table has this name, or one like it (compared caselessly, in NFKC).",
        "Another player at this table has that name, or one like it.",
    ),
    "too_many_players": Code(
        "This client (its app key, or its address) holds as many registered players who "
        "have not taken a seat as it may (`DANGER_UNSEATED_PLAYERS_PER_CLIENT`): seat some, "
        "or wait until the unseated ones expire.",
        "This client holds 1000 registered players who have not taken a seat; each is kept "
        "24 h unless it does. Seat them, or wait.",
    ),
    "seat_in_play": Code(
        "The game has started: only the seat itself (its own token) may ask for its new "
        "token; the admin gives one only before the start.",
        "The game has started: only the seat itself may ask for its new token, since its "
        "cards are its player's alone.",
    ),
    "seat_changed_hands": Code(
        "A retried join's seat was left, or given a new token, since its first answer: its "
        "token no longer works, so it is not given again. Join again with a new key.",
        "Seat 0, which this Idempotency-Key joined, has been left or given a new token since: "
        "join again with a new key.",
    ),
    "bot_seat": Code(
        "A bot's seat: it counts in no player's record (a join with both a player token and "
        "`bot`), and has no token to reissue.",
        "A bot's seat counts in no player's record.",
    ),
    "already_seated": Code(
        "The player (by their token) already has a seat at this table.",
        "This player already has a seat here.",
    ),
    "no_teams": Code("The game is not played in teams.", "danger is not played in teams."),
    "no_such_team": Code(
        "Not one of the game's teams (Danger Danger: pink, yellow).",
        "The teams are pink, yellow.",
    ),
    "seats_not_filled": Code(
        "Every seat must be taken before the start.", "2 of 3 seats are taken; all must be."
    ),
    "no_such_seat": Code("Nobody sits at that seat.", "No one sits at seat 3."),
    "seat_taken": Code("The seat asked for is taken.", "Seat 1 is taken."),
    "seat_out_of_range": Code(
        "The seat asked for is not one of the game's (0 to its seats - 1).",
        "This game has seats 0 to 2, not 3.",
    ),
    "game_not_over": Code(
        "The game is open or active: its table plays again once it is over.",
        "This game is active: its table plays again once it is over.",
    ),
    "already_resigned": Code("The seat has resigned already.", "Seat 1 has resigned already."),
    "not_your_seat": Code(
        "Another seat's token: only the seat's own player or the admin may do this.",
        "Only this seat's player or the admin may do this.",
    ),
    "game_over": Code(
        "The game is over: its tokens only read it.", "This game is over: its tokens only read it."
    ),
    # 412
    "stale_seq": Code(
        "The game is at another seq than If-Match named (`seq` is the game's): read it, and "
        "decide again.",
        "The game is at seq 15, not 14.",
        seq=15,
    ),
    # 413, 415
    "body_too_large": Code(
        "The body is larger than this operation takes.", "Request Entity Too Large"
    ),
    "unsupported_media_type": Code(
        "The body is not sent as JSON: `Content-Type: application/json` (or a `+json` type).",
        "Send the body as application/json (not text/plain).",
    ),
    # 422
    "seats_out_of_range": Code(
        "`seats` beyond the game's (in its schema).", "Expected `int` <= 6 - at `$.seats`"
    ),
    "think_ms_out_of_range": Code(
        "`think_ms` beyond the bounds its schema gives.",
        "Expected `int` <= 30000 - at `$.think_ms`",
    ),
    "think_without_bot": Code(
        "`think_ms` without `bot`: only a bot's seat has a think delay.",
        "Only a bot seat has a think delay.",
    ),
    "idempotency_key_reused": Code(
        "This Idempotency-Key was used with another body (on a command: or another If-Match).",
        "This Idempotency-Key was used with another request body.",
    ),
    # 429
    "rate_limited": Code(
        "Too many requests of this kind from this client: wait `Retry-After` seconds.",
        "Too many command requests from 203.0.113.7: at most 120 per 60 s. Retry after 3 s.",
    ),
    "too_many_streams": Code(
        "Too many streams open from this client (DANGER_STREAMS_PER_CLIENT): close one.",
        "At most 20 streams may be open from one client; close one first.",
    ),
    "too_many_in_flight": Code(
        "This client already has as many audits, replays, exports and long event pages "
        "running or waiting as it may (DANGER_CPU_PER_CLIENT): send the next when one is "
        "answered.",
        "At most 2 audits, replays, exports and long event pages of one client may run or "
        "wait at once; send the next when one is answered.",
    ),
    # 503
    "no_tree_head": Code(
        "The transparency log has signed no tree head yet (the first is signed within "
        "DANGER_LOG_SECONDS of the first worker's start).",
        "The log has signed no tree head yet: ask again.",
    ),
    "store_unavailable": Code(
        "The store cannot be reached now (a restart, a failover): retry after "
        "`Retry-After`. A write may or may not have been applied.",
        "The store cannot be reached now; retry shortly. A write may or may not have been "
        "applied: retry it with the same Idempotency-Key, or read the game first.",
    ),
    "contention": Code(
        "Too many concurrent writers on this game: retry shortly.",
        "Too many concurrent writers on this game; retry shortly.",
    ),
    "id_exhausted": Code(
        "No free game id was found: retry.", "Could not allocate a game id; try again."
    ),
    "not_replicated": Code(
        "The write is on the primary but fewer replicas confirmed it in time than "
        "DANGER_DURABILITY asks: it may or may not be kept. Retry with the same "
        "Idempotency-Key, or the same body from the same seat (never applied twice).",
        "The command was written but not confirmed by enough replicas (1 of 2 in 500 ms), so "
        "it may or may not be kept. Retry with the same Idempotency-Key: you get its answer "
        "once the replicas confirm it, and it is never applied twice. Without a key, the same "
        "body sent again from the same seat gets this command's result while nothing else "
        "has happened in the game.",
    ),
    "history_lost": Code(
        "The store no longer holds this game's history, which it had acknowledged; the "
        "operator is alerted.",
        "The store no longer holds this game, which it had acknowledged; the operator is alerted.",
    ),
    "busy": Code(
        "The pool for audits, replays, exports and long event pages is full: retry after "
        "`Retry-After`.",
        "Too many audits, replays and exports are running; retry shortly.",
    ),
    "stream_capacity": Code(
        "This server holds as many streams as it may (DANGER_STREAMS_MAX): retry.",
        "This server holds as many streams as it may; retry shortly.",
    ),
}

# What an operation's code means where it means something narrower than CODES says.
OVERRIDES: dict[tuple[str, str], Code] = {
    ("joinGame", "unknown_game"): Code(
        "No game has this id, or it is a private game and the body's `invite` is not its "
        "own (its existence is not confirmed without it).",
        f"There is no game {UNKNOWN_GAME!r}.",
    ),
    ("joinGame", "token_invalid"): Code(
        "`Authorization` is not `Bearer <token>`.",
        "Send the token as 'Authorization: Bearer <token>'.",
    ),
    ("listPlayerGames", "token_invalid"): Code(
        "`Authorization` is not `Bearer <token>`.",
        "Send the token as 'Authorization: Bearer <token>'.",
    ),
    ("exportPlayerGames", "token_invalid"): Code(
        "`Authorization` is not `Bearer <token>`.",
        "Send the token as 'Authorization: Bearer <token>'.",
    ),
    ("streamPlayer", "token_invalid"): Code(
        "`Authorization` is not `Bearer <token>`.",
        "Send the token as 'Authorization: Bearer <token>'.",
    ),
    **{
        (operation, code): meaning
        for operation in QUICK_PLAY_OPERATIONS
        for code, meaning in QUICK_PLAY_CALLER.items()
    },
    ("requestQuickPlay", "sandbox_only"): Code(
        "Quick play takes no option that fixes the cards (`seed`, `deck` or `stack`).",
        "Quick play takes no sandbox option (seed).",
    ),
    ("getLeaderboard", "invalid_cursor"): Code(
        "`cursor` is not one this list gave.", "That is not a cursor of this list."
    ),
    ("listPlayerGames", "invalid_cursor"): Code(
        "`cursor` is not one this list gave.", "That is not a cursor of this list."
    ),
    ("startGame", "admin_only"): Code(
        "Not the game's admin token.", "Only the game's admin token may start it."
    ),
    ("abandonGame", "admin_only"): Code(
        "Not the game's admin token.", "Only the game's admin token may abandon it."
    ),
    ("abandonGame", "token_missing"): Code(
        "No token was sent, and the caller (its address) did not create the game.",
        "Send the game's admin token as 'Authorization: Bearer ...': without it, only the "
        "client that created the game (its app key, or its address) may abandon it.",
    ),
    ("abandonGame", "game_not_open"): Code(
        "The game has started (it ends by its rules, or when idle), or is over.",
        "This game is active; it can be abandoned for the reason 'admin' only while open.",
    ),
    ("health", "token_invalid"): Code(
        "`fresh=true` is the operators' check: where the metrics are not open on this port, it "
        "needs `Authorization: Bearer <DANGER_METRICS_TOKEN>`.",
        "Fresh health checks are the operators' to read: send 'Authorization: Bearer "
        "<DANGER_METRICS_TOKEN>'.",
    ),
    ("auditExport", "unsupported_media_type"): Code(
        "The body is not JSON Lines: send `application/x-ndjson`, `application/jsonl` or "
        "`text/plain`.",
        "Send the export as application/x-ndjson, one event a line (not application/json).",
    ),
    ("reissueSeatToken", "seat_changed_hands"): Code(
        "A retry of a seat's own request for a new token, after the seat was given another "
        "token since: the one it gave no longer works, so it is not given again.",
        "Seat 0 has been given another token since this key's request.",
    ),
    ("reissueSeatToken", "not_your_seat"): Code(
        "Another seat's token: a new token is the seat's own to ask for, or the admin's to "
        "give before the start.",
        "Only this seat's player or the admin may do this.",
    ),
    ("resignSeat", "not_your_seat"): Code(
        "Another seat's token, or the admin's: only the seat's own player resigns it.",
        "Only this seat's player may resign it.",
    ),
    ("resignSeat", "game_not_active"): Code(
        "The game is not being played: before the start a seat is given up instead "
        "(`DELETE /v1/games/{id}/players/{seat}`); after the end there is nothing to resign.",
        "This game is open: a seat resigns only while it is played (before the start, leave "
        "the seat).",
    ),
    ("reissueSeatToken", "bot_seat"): Code(
        "The seat is a bot's: the service plays it, it has no token.",
        "A bot's seat has no token: the service plays it.",
    ),
    ("joinGame", "bot_seat"): Code(
        "A join with both a player token and `bot`: a bot's seat counts in no player's record.",
        "A bot's seat counts in no player's record.",
    ),
    ("registerPlayer", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Object missing required field `name`"
    ),
    ("changeTeam", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Object contains unknown field `teams`"
    ),
    ("joinGame", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Expected `str`, got `int` - at `$.name`"
    ),
    ("sendCommand", "invalid_body"): Code(
        CODES["invalid_body"].meaning, "Invalid value 'dance' - at `$.type`"
    ),
    ("auditExport", "body_too_large"): Code(
        "The export is larger than DANGER_AUDIT_UPLOAD_MB.", "Request Entity Too Large"
    ),
}


def _refusals(kind: str) -> dict[str, Code]:
    """The codes the games' rules refuse with from their GameRules function `kind` (decide,
    setup, check_options: domain/kernel/errors.py), each declared once, beside its rule, and
    named in its games' `refusals`: with the games in the order of their names, each game's in
    its own order. A command's or a start's refusal names the games that give it."""
    games: dict[Refusal, list[str]] = {}
    for _, rules in sorted(GAMES.items()):
        for refusal in getattr(rules.refusals, kind):
            games.setdefault(refusal, []).append(rules.title)
    found: dict[str, Code] = {}
    for refusal, titles in games.items():
        if refusal.code in found:
            raise ValueError(f"two games' {kind} give {refusal.code!r}, meaning two things")
        meaning = refusal.meaning
        if kind != "check_options":
            meaning = f"{', '.join(titles)}: {meaning}"
        found[refusal.code] = Code(meaning, refusal.example)
    return found


REFUSED = {
    "sendCommand": _refusals("decide"),
    "startGame": _refusals("setup"),
    "createGame": _refusals("check_options"),
    "requestQuickPlay": _refusals("check_options"),
}
"""operationId -> the games' refusals it answers (409; the create's, 422), by code. Their
`game_over` and `unknown_command` are met first by the table (`game_not_active`) and the service
(`not_this_games_command`): no game names them."""

_POOLED_429 = ("rate_limited", "too_many_in_flight")
_READ_503 = ("store_unavailable", "history_lost")
_OFFLOADED_503 = (*_READ_503, "busy")
_WRITE_503 = ("store_unavailable", "contention", "not_replicated", "history_lost")
_READER = {
    401: ("token_invalid",),
    403: ("token_for_other_game",),
}

ERRORS: dict[str, dict[int, tuple[str, ...]]] = {
    "createGame": {
        400: ("invalid_body", "invalid_idempotency_key", "invalid_parameter"),
        401: ("key_missing", "key_invalid", "key_revoked"),
        403: ("sandbox_only",),
        409: ("too_many_open_games", "idempotency_key_in_use"),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        422: (
            "seats_out_of_range",
            # First, as the service checks an option's bounds before the rules see it.
            "option_out_of_range",
            *(c for c in REFUSED["createGame"] if c != "option_out_of_range"),
            "idempotency_key_reused",
        ),
        429: ("rate_limited",),
        503: ("store_unavailable", "id_exhausted", "not_replicated"),
    },
    "listGames": {
        400: ("invalid_parameter", "invalid_cursor"),
        401: ("key_invalid", "key_revoked"),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "getGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited",),
        503: _READ_503,
    },
    "joinGame": {
        400: ("invalid_body", "invalid_name", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_invalid", "player_token_invalid", "key_invalid", "key_revoked"),
        404: ("unknown_game",),
        409: (
            "game_not_open",
            "game_full",
            "seat_taken",
            "seat_out_of_range",
            "name_taken",
            "bot_seat",
            "already_seated",
            "seat_changed_hands",
            "no_teams",
            "no_such_team",
        ),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        422: ("think_ms_out_of_range", "think_without_bot", "idempotency_key_reused"),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "startGame": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("admin_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("game_not_open", "seats_not_filled", *REFUSED["startGame"]),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "abandonGame": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid", "key_invalid", "key_revoked"),
        403: ("admin_only", "token_for_other_game", "not_creator"),
        404: ("unknown_game",),
        409: ("game_not_open",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "sendCommand": {
        400: ("invalid_body", "invalid_if_match", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("seat_only", "token_for_other_game"),
        404: ("unknown_game",),
        409: ("game_not_active", "not_this_games_command", "too_late", *REFUSED["sendCommand"]),
        412: ("stale_seq",),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "listEvents": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: _POOLED_429,
        503: _OFFLOADED_503,
    },
    "streamEvents": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: ("rate_limited", "too_many_streams"),
        503: (*_READ_503, "stream_capacity"),
    },
    "replayGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game", "no_such_event"),
        429: _POOLED_429,
        503: _OFFLOADED_503,
    },
    "exportGame": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game",),
        429: _POOLED_429,
        503: _OFFLOADED_503,
    },
    "auditGame": {
        400: ("invalid_parameter",),
        404: ("unknown_game",),
        429: _POOLED_429,
        503: _OFFLOADED_503,
    },
    "getRound": {
        400: ("invalid_parameter",),
        **_READER,
        404: ("unknown_game", "no_such_round"),
        429: _POOLED_429,
        503: _OFFLOADED_503,
    },
    "leaveSeat": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_open", "no_such_seat", "not_your_seat"),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "resignSeat": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_active", "no_such_seat", "not_your_seat", "already_resigned"),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "rematchGame": {
        400: ("invalid_parameter",),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_over", "too_many_open_games"),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "changeTeam": {
        400: ("invalid_body", "invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: ("game_not_open", "no_such_seat", "not_your_seat", "no_teams", "no_such_team"),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        422: ("idempotency_key_reused",),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "reissueSeatToken": {
        400: ("invalid_idempotency_key", "invalid_parameter"),
        401: ("token_missing", "token_invalid"),
        403: ("token_for_other_game",),
        404: ("unknown_game",),
        409: (
            "no_such_seat",
            "bot_seat",
            "game_over",
            "not_your_seat",
            "seat_in_play",
            "seat_changed_hands",
        ),
        429: ("rate_limited",),
        503: _WRITE_503,
    },
    "registerPlayer": {
        400: ("invalid_body", "invalid_name"),
        401: ("key_missing", "key_invalid", "key_revoked"),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        429: ("rate_limited", "too_many_players"),
        503: ("store_unavailable",),
    },
    "getPlayer": {
        400: ("invalid_parameter",),
        404: ("unknown_player",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "requestQuickPlay": {
        400: ("invalid_body",),
        401: ("player_token_required", "player_token_invalid", "key_invalid", "key_revoked"),
        403: ("not_this_player", "not_your_player", "sandbox_only"),
        409: ("already_waiting",),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        422: (
            "seats_out_of_range",
            "player_missing",
            "option_out_of_range",
            *(c for c in REFUSED["requestQuickPlay"] if c != "option_out_of_range"),
        ),
        429: ("rate_limited", "quick_play_full"),
        503: ("store_unavailable", "contention"),
    },
    "getQuickPlay": {
        400: ("invalid_parameter",),
        401: ("player_token_required", "player_token_invalid", "key_invalid", "key_revoked"),
        403: ("not_this_player", "not_your_player"),
        404: ("unknown_request",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "cancelQuickPlay": {
        400: ("invalid_parameter",),
        401: ("player_token_required", "player_token_invalid", "key_invalid", "key_revoked"),
        403: ("not_this_player", "not_your_player"),
        404: ("unknown_request",),
        409: ("not_waiting",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "getLeaderboard": {
        400: ("invalid_parameter", "invalid_cursor"),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "listPlayerGames": {
        400: ("invalid_parameter", "invalid_cursor"),
        401: ("token_invalid", "player_token_invalid"),
        404: ("unknown_player",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "streamPlayer": {
        400: ("invalid_parameter",),
        401: ("token_invalid", "player_token_invalid", "player_token_required"),
        403: ("not_this_player",),
        404: ("unknown_player",),
        429: ("rate_limited", "too_many_streams"),
        503: ("store_unavailable", "stream_capacity"),
    },
    "exportPlayerGames": {
        400: ("invalid_parameter",),
        401: ("token_invalid", "player_token_invalid"),
        404: ("unknown_player",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "health": {
        400: ("invalid_parameter",),
        401: ("token_invalid",),
        429: ("rate_limited",),
    },
    "signingKeys": {429: ("rate_limited",), 503: ("store_unavailable",)},
    "logHead": {429: ("rate_limited",), 503: ("store_unavailable", "no_tree_head")},
    "logEntries": {
        400: ("invalid_parameter",),
        409: ("beyond_log",),
        422: ("invalid_range",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    "logInclusionProof": {
        400: ("invalid_parameter",),
        404: ("not_logged",),
        409: ("beyond_log",),
        429: ("rate_limited",),
        503: ("store_unavailable", "no_tree_head"),
    },
    "logConsistencyProof": {
        400: ("invalid_parameter",),
        409: ("beyond_log",),
        422: ("invalid_range",),
        429: ("rate_limited",),
        503: ("store_unavailable",),
    },
    **{
        operation: {
            400: ("invalid_parameter", *(("invalid_body",) if body else ())),
            401: ("key_missing", "key_invalid", "key_revoked"),
            **({404: ("unknown_webhook", *extra404)} if one else {}),
            **({409: conflicts} if conflicts else {}),
            **({413: ("body_too_large",), 415: ("unsupported_media_type",)} if body else {}),
            **({422: ("invalid_webhook_url",)} if url else {}),
            429: ("rate_limited",),
            503: ("store_unavailable",),
        }
        for operation, body, one, url, conflicts, extra404 in (
            ("createWebhook", True, False, True, ("too_many_webhooks",), ()),
            ("listWebhooks", False, False, False, (), ()),
            ("getWebhook", False, True, False, (), ()),
            ("changeWebhook", True, True, True, (), ()),
            ("deleteWebhook", False, True, False, (), ()),
            ("rotateWebhookSecret", False, True, False, (), ()),
            ("listWebhookDeliveries", False, True, False, (), ()),
            (
                "replayWebhookDelivery",
                False,
                True,
                False,
                ("delivery_queued",),
                ("unknown_delivery",),
            ),
        )
    },
    "auditExport": {
        400: ("empty_export", "invalid_body"),
        413: ("body_too_large",),
        415: ("unsupported_media_type",),
        429: _POOLED_429,
        503: ("store_unavailable", "busy"),
    },
}
"""operationId -> status -> every code the operation answers with it."""

RETRY_AFTER = {
    "rate_limited",
    "too_many_players",
    "idempotency_key_in_use",
    "store_unavailable",
    "not_replicated",
    "busy",
    "too_many_in_flight",
}
"""The codes whose answer carries `Retry-After`."""


def code_of(operation: str, code: str) -> Code:
    """What `code` means where `operation` answers it, and an example of its detail."""
    found = OVERRIDES.get((operation, code)) or REFUSED.get(operation, {}).get(code)
    return found or CODES[code]


def rate_limited_detail(method: str, path: str) -> str:
    """The refusal of the rate limiter (service/http/guards/ratelimit.py) at the default rates."""
    kind = kind_of(method.upper(), path) or "read"
    rate = getattr(Rates(), kind)
    return (
        f"Too many {kind} requests from 203.0.113.7: at most {rate.requests} per "
        f"{rate.seconds} s. Retry after 1 s."
    )


def problem_description(operation: str, status: int, lead: str) -> str:
    """The status's description: its lead, then every code with what it means."""
    lines = [
        f"- `{code}`: {code_of(operation, code).meaning}" for code in ERRORS[operation][status]
    ]
    return "\n".join([lead, "", *lines])


assert all(status in TITLES for codes in ERRORS.values() for status in codes)
