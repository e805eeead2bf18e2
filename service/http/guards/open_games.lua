-- Claims a place among a client's open games, if it has fewer than the cap.
-- KEYS[1]: the client's sorted set (member: a game id or a pending claim; score: the server's
-- time in ms when it was added). ARGV: cap, claim, ttl (ms).
-- Returns {1, now} when claimed; else {0, now, member, score, member, score, ...}.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {1, now}
end
local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
table.insert(held, 1, now)
table.insert(held, 1, 0)
return held
