-- Hold a tournament's lease for driver ARGV[1] (TTL ARGV[2] ms) unless another driver
-- holds it; returns 'ok' or the other holder.
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return holder end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'ok'
