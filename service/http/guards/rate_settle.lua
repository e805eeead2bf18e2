-- Settle what one API process admitted from one client's bucket since it last settled it, and
-- read the bucket as every process has left it (service/http/guards/rate_ledger.py). The
-- bucket is the one service/http/guards/rate_bucket.lua keeps: a GCRA "theoretical arrival
-- time" (TAT) in microseconds of the server's clock. Each admitted request moves it one
-- interval (window / quota) later.
-- KEYS[1]: the bucket. ARGV: quota (requests), window (seconds), requests admitted (0: a read).
-- Returns {TAT, now}: the bucket's TAT after these requests (now when it is full) and the
-- server's now, both in whole microseconds.
local quota = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000000
local interval = math.max(1, math.floor(window / quota))
local admitted = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then
  tat = now
end
if admitted > 0 then
  tat = tat + admitted * interval
  -- Soft state, as in rate_bucket.lua: neither the append-only file nor the replicas.
  redis.set_repl(redis.REPL_NONE)
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000))
end
return {tat, now}
