-- needs: close.lua
-- Close an unanswered decision at its deadline; an answer that won the race is kept.
if redis.call('HGET', KEYS[1], 'status') == 'pending' then
  close(KEYS[1], redis.call('HGET', KEYS[1], 'bot'), 'expired', CLOSED_TTL)
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'expired'
end
return redis.call('HGET', KEYS[1], 'status')
