-- wrk: every connection appends to a stream of its own, one request at a time, naming the
-- entry count it expects, as a game client names the seq it decided against.
local threads, next_tid = {}, 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

local headers = { ["Content-Type"] = "application/json" }
local expected, stream = 0, nil
failed = 0

function init(args)
  stream = string.format("%s-%d", os.getenv("BENCH_RUN"), tid)
end

function request()
  return wrk.format("POST", "/anchor/" .. stream, headers,
    string.format('{"type":"play_card","expected":%d,"stack":2}', expected))
end

function response(status, headers, body)
  local seq = tonumber(body:match('"seq":(%-?%d+)'))
  if status ~= 200 or seq == nil or seq < 0 then failed = failed + 1 return end
  expected = seq
end

function done(summary, latency, requests)
  local failures = 0
  for _, thread in ipairs(threads) do failures = failures + thread:get("failed") end
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"socket_errors": %d, "http_errors": %d, "refused": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, summary.errors.connect + summary.errors.read + summary.errors.write +
    summary.errors.timeout, summary.errors.status, failures))
end
