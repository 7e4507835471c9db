-- needs: token_bot.lua close.lua
-- What judging an answer needs, with the token check in the same round trip: the
-- token's active bot (or nothing), then the decision's bot, status, legal actions, seat
-- (a closed decision, looked for among the token's bot's, has only the first two).
-- ARGV: the bot prefix, the decision's id.
local name = token_bot(KEYS[1], ARGV[1])
if not name then return {} end
local f = redis.call('HMGET', KEYS[2], 'bot', 'status', 'legal', 'seat')
if f[1] then return {name, unpack(f)} end
local bot, status = decision_state(KEYS[2], name, ARGV[1] .. name .. ':closed:', ARGV[2], CLOSED_TTL)
return {name, bot or false, status or false, false, false}
