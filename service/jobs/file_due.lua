-- File games in their shard's due set, each only if its stream still ends at the seq its
-- time was worked out from: a later append has its own time on the way (or its grace).
-- KEYS: 1 the shard's due set, then each game's stream
-- ARGV: per game, in the order of KEYS[2..]: game id, seq, time in ms ('' to take it out)
for i = 2, #KEYS do
  local j = (i - 2) * 3
  local last = redis.call('XREVRANGE', KEYS[i], '+', '-', 'COUNT', 1)
  local seq = 0
  if #last > 0 then seq = tonumber(string.match(last[1][1], '^0%-(%d+)$')) end
  if seq == tonumber(ARGV[j + 2]) then
    if ARGV[j + 3] == '' then
      redis.call('ZREM', KEYS[1], ARGV[j + 1])
    else
      redis.call('ZADD', KEYS[1], ARGV[j + 3], ARGV[j + 1])
    end
  end
end
return 0
