#!/usr/bin/env bash
# Plays a whole three-player Danger game with curl only (python3 picks fields out of the JSON
# answers), against the API at $DANGER_API (http://127.0.0.1:8000 unset: `make run`). Each
# seat sends the first command of its `legal` list, so the game always moves on; every
# command is printed, and each round's scores as it ends. Whose turn is next comes with each
# command's answer, so the game is read once per move, by the seat about to move. A request
# refused for now (429 past a rate limit, 503) is sent again after its Retry-After, a write
# under the same Idempotency-Key (applied once); any other refusal stops it with the server's
# answer and exit status 1.
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
# curl's --retry sends it again on 429 and 503 after their Retry-After (at most 5 times, 60 s
# in all); a POST carries an Idempotency-Key of its own, the same for each of its tries.
call() {
  local method=$1 path=$2 answer key=()
  shift 2
  [ "$method" = POST ] && key=(-H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)")
  answer=$(curl -sS --fail-with-body --retry 5 --retry-max-time 60 -X "$method" "$API$path" \
    "${key[@]}" "$@" 2>&1) || fail "$method $path: ${answer:-no answer}"
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

# The game's status and the seat to move: read once here, then from each command's answer.
read -r STATUS SEAT <<< "$(call GET "/v1/games/$ID" | json 'j["status"], j["view"]["state"]["turn"]')"
while [ "$STATUS" != finished ]; do
  TOKEN=${TOKENS[$SEAT]}
  MOVE=$(call GET "/v1/games/$ID" -H "Authorization: Bearer $TOKEN" | json 'json.dumps(j["legal"][0])')
  ANSWER=$(call POST "/v1/games/$ID/commands" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "$MOVE")
  echo "$ANSWER" | progress "$SEAT" "$MOVE"
  read -r STATUS SEAT <<< "$(echo "$ANSWER" | json 'j["view"]["status"], j["view"]["state"]["turn"]')"
done
call GET "/v1/games/$ID" \
  | json '"totals", j["view"]["state"]["totals"], "winners", j["view"]["state"]["winners"]'
