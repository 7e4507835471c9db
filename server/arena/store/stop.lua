-- needs: status_index.lua
-- Stop a tournament for good or for now (cancelled, interrupted, failed), unless it is
-- finished: its status, the reason, out of the active set, the lease dropped. With
-- ARGV[5] = '1' only if no driver holds it (a supervisor tidying up after a dead driver).
if redis.call('HGET', KEYS[1], 'status') == 'finished' then return 0 end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'stopped', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[3]) end
redis.call('SREM', KEYS[3], ARGV[4])
redis.call('DEL', KEYS[2])
index_status(KEYS[1], 4, ARGV[4], ARGV[6])  -- KEYS[4..7]: the status indexes
return 1
