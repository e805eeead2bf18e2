-- One client's bucket for one kind of request, as GCRA: the key holds the bucket's
-- "theoretical arrival time" (TAT), in microseconds of the server's clock (TIME), so API
-- processes whose clocks disagree still share one bucket. A bucket of `quota` requests
-- refilled at quota/window per second admits a request while TAT + interval - now <= window.
-- The key expires when the bucket is full again: an idle client leaves nothing behind.
-- All in whole microseconds, so the arithmetic is exact in Lua's doubles (now is ~2^51).
-- KEYS[1]: the bucket. ARGV: quota (requests), window (seconds).
-- Returns {admitted (1 or 0), requests left now, seconds until one more, seconds to wait}.
local quota = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000000
local interval = math.max(1, math.floor(window / quota))
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then
  tat = now
end
local after = tat + interval
if after - now > window then
  local wait = math.ceil((after - window - now) / 1000000)
  return {0, 0, wait, wait}
end
-- A bucket is soft state: not written to the append-only file or the replicas (a restart or
-- a failover gives every client a full bucket), so a request's check never waits for the
-- disk under `appendfsync always`, and the file does not grow by one write per request.
redis.set_repl(redis.REPL_NONE)
redis.call('SET', KEYS[1], after, 'PX', math.ceil((after - now) / 1000))
local room = (window - (after - now)) / interval
local left = math.floor(room)
local next_one = math.ceil((left + 1 - room) * interval / 1000000)
return {1, left, next_one, 0}
