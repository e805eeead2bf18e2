#!/usr/bin/env bash
# Plays a whole three-player Danger game against a running `make run`, with curl only
# (python3 picks fields out of the JSON answers). Each seat sends the first command of its
# `legal` list, so the game always moves on.
set -euo pipefail
API=${API:-http://127.0.0.1:8000}
GAME=$(curl -s -X POST $API/v1/games -H 'Content-Type: application/json' \
  -d '{"game": "danger", "seats": 3}')
echo "$GAME"
ID=$(echo "$GAME" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
TOKENS=$(mktemp)
ADMIN=$(echo "$GAME" | python3 -c 'import json,sys; print(json.load(sys.stdin)["admin_token"])')
for NAME in Anton Bert Chris; do
  curl -s -X POST $API/v1/games/$ID/players -H 'Content-Type: application/json' \
    -d "{\"name\": \"$NAME\"}" | tee /dev/stderr | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
done > "$TOKENS"
curl -s -X POST $API/v1/games/$ID/start -H "Authorization: Bearer $ADMIN" > /dev/null
T0=$(sed -n 1p "$TOKENS")
curl -s $API/v1/games/$ID -H "Authorization: Bearer $T0" \
  | python3 -c 'import json,sys; g=json.load(sys.stdin); print("turn", g["view"]["state"]["turn"], "legal", g["legal"])'
curl -s -X POST $API/v1/games/$ID/commands -H "Authorization: Bearer $T0" \
  -H 'Content-Type: application/json' -d '{"type": "draw"}' \
  | python3 -c 'import json,sys; print([(e["type"], e["data"]) for e in json.load(sys.stdin)["events"]])'
while true; do
  GAME=$(curl -s $API/v1/games/$ID)
  STATUS=$(echo "$GAME" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
  [ "$STATUS" = finished ] && break
  SEAT=$(echo "$GAME" | python3 -c 'import json,sys; print(json.load(sys.stdin)["view"]["state"]["turn"])')
  TOKEN=$(sed -n "$((SEAT + 1))p" "$TOKENS")
  MOVE=$(curl -s $API/v1/games/$ID -H "Authorization: Bearer $TOKEN" \
    | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["legal"][0]))')
  curl -s -o /dev/null -X POST $API/v1/games/$ID/commands -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$MOVE"
done
curl -s $API/v1/games/$ID | python3 -c 'import json,sys; s=json.load(sys.stdin)["view"]["state"]; print("totals", s["totals"], "winners", s["winners"])'
