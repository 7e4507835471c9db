-- needs: close.lua
-- Close an unanswered decision at its deadline; an answer that won the race is kept.
-- ARGV: the decision's id, its bot, the bot's ``{p}:bot:{name}:closed:``.
local _, status = decision_state(KEYS[1], ARGV[2], ARGV[3], ARGV[1], CLOSED_TTL)
if status == 'pending' then
  close(KEYS[1], ARGV[3], ARGV[1], 'expired', CLOSED_TTL)
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 'expired'
end
return status or false
