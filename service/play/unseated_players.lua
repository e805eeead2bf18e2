-- Files a new registered player under the client that registered it, if that client holds
-- fewer players who never took a seat than the cap.
-- KEYS[1]: the client's sorted set (member: a player id; score: the server's time in ms when
-- that player's record expires unless the player takes a seat). ARGV: cap (0: none), id,
-- keep (ms). Returns 1 when filed, 0 when the client is at its cap.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local cap = tonumber(ARGV[1])
if cap > 0 and redis.call('ZCARD', KEYS[1]) >= cap then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
