-- Create table ARGV[1] .. INCR(KEYS[1]) (hash key ARGV[2] .. id) unless the live tables
-- (KEYS[3]) number ARGV[3] already, or one of its holders' live sets (KEYS[4..]) ARGV[4]:
-- the bounds are checked and the table counted in one step, so a burst cannot pass them.
-- ARGV[5] spec, ARGV[6] time, ARGV[7] creator, ARGV[8..] seat, bot pairs.
if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[3]) then return {'full', ''} end
for i = 4, #KEYS do
  if redis.call('SCARD', KEYS[i]) >= tonumber(ARGV[4]) then return {'busy', tostring(i - 3)} end
end
local tid = ARGV[1] .. redis.call('INCR', KEYS[1])
local key = ARGV[2] .. tid
redis.call('HSET', key, 'spec', ARGV[5], 'status', 'open', 'created', ARGV[6], 'creator', ARGV[7])
for i = 8, #ARGV, 2 do redis.call('HSET', key, 'seat:' .. ARGV[i], ARGV[i + 1]) end
redis.call('ZADD', KEYS[2], ARGV[6], tid)
redis.call('SADD', KEYS[3], tid)
for i = 4, #KEYS do redis.call('SADD', KEYS[i], tid) end
return {'ok', tid}
