-- Append hand number ARGV[1] (1-based) to a table's record unless it is already there.
if redis.call('LLEN', KEYS[1]) == tonumber(ARGV[1]) - 1 then
  redis.call('RPUSH', KEYS[1], ARGV[2])
  return 1
end
return 0
