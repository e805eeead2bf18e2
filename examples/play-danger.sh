#!/usr/bin/env bash
# Plays a whole three-player Danger game with curl only (python3 picks fields out of the JSON
# answers), against the API at $DANGER_API (http://127.0.0.1:8000 unset: `make run`). Each
# seat sends the first command of its `legal` list, so the game always moves on; every
# command is printed, and each round's scores as it ends. Any refused request stops it with
# the server's answer and exit status 1.
set -euo pipefail
API=${DANGER_API:-http://127.0.0.1:8000}
API=${API%/}

fail() { echo "play-danger.sh: $*" >&2; exit 1; }
# Fields of the JSON on stdin, space-separated: json 'EXPRESSION[, EXPRESSION...]' (Python, on j).
json() { python3 -c "import json,sys; j=json.load(sys.stdin); print(*($1,))"; }
# A command's answer on stdin, for seat $1 that sent $2: the command, and the scores of any
# round it ended.
progress() {
  python3 -c 'import json, sys
answer = json.load(sys.stdin)
print("[%d] seat %s: %s" % (answer["seq"], sys.argv[1], sys.argv[2]))
for e in answer["events"]:
    if e["type"] == "round_scored":
        print("round", e["data"]["round"], "points", e["data"]["points"], "totals", e["data"]["totals"])' "$@"
}
# METHOD PATH [curl arguments...]: the answer's body; a transport error or a 4xx/5xx fails.
call() {
  local method=$1 path=$2 answer
  shift 2
  answer=$(curl -sS --fail-with-body -X "$method" "$API$path" "$@" 2>&1) \
    || fail "$method $path: ${answer:-no answer}"
  printf '%s' "$answer"
}

curl -sS -o /dev/null "$API/health" 2>/dev/null \
  || fail "cannot reach the Danger Hall API at $API; start it with \`make run\`, or point DANGER_API at it"

GAME=$(call POST /v1/games -H 'Content-Type: application/json' -d '{"game": "danger", "seats": 3}')
ID=$(echo "$GAME" | json 'j["id"]')
ADMIN=$(echo "$GAME" | json 'j["admin_token"]')
echo "game $ID: danger, 3 seats"
TOKENS=()
for NAME in Anton Bert Chris; do
  JOINED=$(call POST "/v1/games/$ID/players" -H 'Content-Type: application/json' \
    -d "{\"name\": \"$NAME\"}")
  TOKENS+=("$(echo "$JOINED" | json 'j["token"]')")
  echo "$NAME takes seat $(echo "$JOINED" | json 'j["seat"]')"
done
call POST "/v1/games/$ID/start" -H "Authorization: Bearer $ADMIN" > /dev/null
echo started

while true; do
  FIELDS=$(call GET "/v1/games/$ID" | json 'j["status"], j["view"]["state"]["turn"]')
  read -r STATUS SEAT <<< "$FIELDS"
  [ "$STATUS" = finished ] && break
  TOKEN=${TOKENS[$SEAT]}
  MOVE=$(call GET "/v1/games/$ID" -H "Authorization: Bearer $TOKEN" | json 'json.dumps(j["legal"][0])')
  call POST "/v1/games/$ID/commands" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$MOVE" | progress "$SEAT" "$MOVE"
done
call GET "/v1/games/$ID" \
  | json '"totals", j["view"]["state"]["totals"], "winners", j["view"]["state"]["winners"]'
