-- wrk: every connection plays whole recorded games, one request at a time, through the
-- public API: create (sandbox seed), join every seat, start, then each recorded command
-- with its seat's token. Run with as many threads as connections (one connection a thread),
-- so a game's commands are sent in order.
local games = dofile(os.getenv("BENCH_GAMES"))
local threads = {}
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

local json = { ["Content-Type"] = "application/json" }
local g, phase, k, id, admin, tokens
completed, failed = 0, 0
local stride
local prefer = os.getenv("BENCH_PREFER") -- nil: no Prefer header, the full answer
local key = os.getenv("BENCH_KEY") -- an app key's token: the games created are the key's
local create_headers = { ["Content-Type"] = "application/json" }
if key then create_headers["Authorization"] = "Bearer " .. key end

function init(args)
  stride = tonumber(os.getenv("BENCH_THREADS"))
  g = tid % #games + 1
  phase, k, tokens = "create", 0, {}
end

local function next_game(failed_game)
  if failed_game then failed = failed + 1 else completed = completed + 1 end
  g = (g - 1 + stride) % #games + 1
  phase, k, tokens = "create", 0, {}
end

function request()
  local game = games[g]
  if phase == "create" then
    return wrk.format("POST", "/v1/games", create_headers, game.create)
  elseif phase == "join" then
    return wrk.format("POST", "/v1/games/" .. id .. "/players", json, game.joins[k])
  elseif phase == "start" then
    return wrk.format("POST", "/v1/games/" .. id .. "/start",
      { ["Authorization"] = "Bearer " .. admin }, "")
  end
  local step = game.steps[k]
  return wrk.format("POST", "/v1/games/" .. id .. "/commands", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. tokens[step[1] + 1],
    ["Prefer"] = prefer,
  }, step[2])
end

function response(status, headers, body)
  local game = games[g]
  if status < 200 or status > 299 then
    io.stderr:write(string.format("HTTP %d in %s: %s\n", status, phase, body:sub(1, 200)))
    return next_game(true)
  end
  if phase == "create" then
    id = body:match('"id":"([^"]+)"')
    admin = body:match('"admin_token":"([^"]+)"')
    phase, k = "join", 1
  elseif phase == "join" then
    tokens[k] = body:match('"token":"([^"]+)"')
    if k < #game.joins then k = k + 1 else phase = "start" end
  elseif phase == "start" then
    phase, k = "play", 1
  else
    if k < #game.steps then k = k + 1 else next_game(false) end
  end
end

function done(summary, latency, requests)
  local completed, failed = 0, 0
  for _, thread in ipairs(threads) do
    completed = completed + thread:get("completed")
    failed = failed + thread:get("failed")
  end
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"socket_errors": %d, "http_errors": %d, "games_completed": %d, "games_failed": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, summary.errors.connect + summary.errors.read + summary.errors.write +
    summary.errors.timeout, summary.errors.status, completed, failed))
end
