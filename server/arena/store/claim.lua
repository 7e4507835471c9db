-- Claim board ARGV[3] of match ARGV[4] for job ARGV[1] (TTL ARGV[2] ms), only while the
-- tournament is live (queued or running, its driver's lease held), the board is not
-- stored yet and the match is not complete (a match decided by its sequential test is
-- complete with boards unplayed). The first claim turns a queued tournament into a running one.
local status = redis.call('HGET', KEYS[1], 'status')
if (status ~= 'queued' and status ~= 'running') or redis.call('EXISTS', KEYS[2]) == 0 then return 'stop' end
if redis.call('HEXISTS', KEYS[4], ARGV[3]) == 1 or redis.call('SISMEMBER', KEYS[5], ARGV[4]) == 1 then
  return 'done'
end
if not redis.call('SET', KEYS[3], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'busy' end
if status == 'queued' then redis.call('HSET', KEYS[1], 'status', 'running') end
return 'ok'
