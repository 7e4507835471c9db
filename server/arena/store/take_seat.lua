-- Seat bot ARGV[2] at seat ARGV[1] of table ARGV[3] (hash KEYS[1]) if the seat is free and
-- the bot's live tables (KEYS[2]) are fewer than ARGV[4]: 'ok', 'taken' or 'busy'.
if redis.call('HEXISTS', KEYS[1], 'seat:' .. ARGV[1]) == 1 then return 'taken' end
if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  return 'busy'
end
redis.call('HSET', KEYS[1], 'seat:' .. ARGV[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
return 'ok'
