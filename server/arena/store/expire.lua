-- Close an unanswered decision at its deadline; an answer that won the race is kept. A
-- closed decision (answered or expired) keeps only what refusing a late answer needs
-- (bot, status) for CLOSED_TTL seconds: the observation is the bulk of a decision, and
-- at hundreds of decisions a second an hour of them would fill the server's memory.
if redis.call('HGET', KEYS[1], 'status') == 'pending' then
  redis.call('HSET', KEYS[1], 'status', 'expired')
  redis.call('HDEL', KEYS[1], 'head', 'legal', 'shown')
  redis.call('EXPIRE', KEYS[1], CLOSED_TTL)
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'expired'
end
return redis.call('HGET', KEYS[1], 'status')
