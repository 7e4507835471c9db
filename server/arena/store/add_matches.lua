-- KEYS[1] the tournament's match list; ARGV[1] the match key prefix, then (match id, spec JSON) pairs.
local added = 0
for i = 2, #ARGV, 2 do
  if redis.call('HSETNX', ARGV[1] .. ARGV[i], 'spec', ARGV[i + 1]) == 1 then
    redis.call('HSET', ARGV[1] .. ARGV[i], 'status', 'running')
    redis.call('RPUSH', KEYS[1], ARGV[i])
    added = added + 1
  end
end
return added
