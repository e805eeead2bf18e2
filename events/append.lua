-- Append one command's events to a game's stream, atomically.
-- KEYS: 1 the game's stream, 2 its shard's feed, 3 the request's idempotency record (or,
--       without one, its seat's unanswered command), 4 secrets hash, 5 its shard's due set
-- ARGV: 1 expected seq (the last seq the caller decided against), 2 game id,
--       3 how long to keep the idempotency record, in ms ('' for no record),
--       4 request fingerprint ('' for none),
--       5 the expected head's hash (the `prev` of the first envelope),
--       6 number of secret field/value pairs, then the pairs, then the envelopes.
-- Returns {'ok', last seq} | {'conflict', actual last seq, the stored envelopes from the
--         expected seq on (none when the caller is far behind)} | {'forked', last seq}
--         | {'duplicate', fp|first|last} | {'retry', fp|first|last|hash}.
if ARGV[3] ~= '' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {'duplicate', prior} end
end
-- Explicit ids reject a reused id but accept a gap, so compare the seq here.
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local seq = 0
if #last > 0 then seq = tonumber(string.match(last[1][1], '^0%-(%d+)$')) end
-- Without a key: the seat's command that was written but answered 503, sent again with the
-- same body while its last event is still the game's last, is that command, not another.
if ARGV[3] == '' and ARGV[4] ~= '' and seq > 0 then
  local prior = redis.call('GET', KEYS[3])
  if prior then
    local fp, hash = string.match(prior, '^(%x+)|%d+|%d+|(%x+)$')
    if fp == ARGV[4] and string.match(last[1][2][2], '.*"hash":"(%x+)"') == hash then
      redis.call('DEL', KEYS[3])
      return {'retry', prior}
    end
  end
end
if seq ~= tonumber(ARGV[1]) then
  -- The caller's fold is behind (the game's commands reach every API process in turn): the
  -- stored events from its head on come with the refusal, so that it catches up without a
  -- read of its own. A caller far behind, or ahead of a store that lost events, reads.
  local behind = seq - tonumber(ARGV[1])
  local reply = {'conflict', tostring(seq)}
  if behind > 0 and behind <= 64 and tonumber(ARGV[1]) > 0 then
    for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '0-' .. ARGV[1], '+')) do
      reply[#reply + 1] = entry[2][2]
    end
  end
  return reply
end
-- The same seq with another head: the caller folded a history the store no longer holds
-- (it lost events, and others were appended since). The stored envelope is canonical JSON
-- with sorted keys: its own `hash` is the last one in it (after `data`, before `prev`).
if seq > 0 and string.match(last[1][2][2], '.*"hash":"(%x+)"') ~= ARGV[5] then
  return {'forked', tostring(seq)}
end
local i = 7
for _ = 1, tonumber(ARGV[6]) do
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1])
  i = i + 2
end
local first = seq + 1
while i <= #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[1], '0-' .. seq, 'e', ARGV[i])
  i = i + 1
end
redis.call('XADD', KEYS[2], '*', 'game', ARGV[2], 'first', first, 'last', seq)
-- The feed's readers wait on this bell rather than poll every feed (service/infra/bell.py). A
-- PUBLISH names no key: in a cluster it reaches the subscribers of every node.
redis.call('PUBLISH', 'dg:bell', KEYS[2])
-- The game needs looking at within a grace period (by the server's clock), unless it was due
-- sooner: the process that appended sets the exact time once it has queued the game's jobs,
-- and if it dies first, the sweep finds the game here.
local now = redis.call('TIME')
local grace = now[1] * 1000 + math.floor(now[2] / 1000) + 10000
redis.call('ZADD', KEYS[5], 'LT', grace, ARGV[2])
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[3], ARGV[4] .. '|' .. first .. '|' .. seq, 'PX', ARGV[3])
end
return {'ok', tostring(seq)}
