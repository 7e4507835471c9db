-- needs: status_index.lua
-- Make driver ARGV[1] the tournament's driver (resume): refused when it is finished or
-- another live driver holds it. Returns 'ok', 'finished' or the other holder.
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'finished' then return 'finished' end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then return holder end
local next = 'queued'
if tonumber(redis.call('HGET', KEYS[1], 'pairs_done')) > 0 then next = 'running' end
redis.call('HSET', KEYS[1], 'status', next, 'driver', ARGV[1], 'failures', 0)
redis.call('HDEL', KEYS[1], 'error')
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
index_status(KEYS[1], 4, ARGV[3], ARGV[4])  -- KEYS[4..7]: the status indexes (out of them all)
return 'ok'
