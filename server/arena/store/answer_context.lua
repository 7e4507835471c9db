-- needs: token_bot.lua
-- What judging an answer needs, with the token check in the same round trip: the
-- token's active bot (or nothing), then the decision's bot, status, legal actions, seat.
local name = token_bot(KEYS[1], ARGV[1])
if not name then return {} end
return {name, unpack(redis.call('HMGET', KEYS[2], 'bot', 'status', 'legal', 'seat'))}
