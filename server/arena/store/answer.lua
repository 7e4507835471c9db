-- needs: open_list.lua token_bot.lua seen.lua close.lua listen.lua
-- Accept a bot's answer only while its decision is open and before its real deadline
-- (the shown one may have passed: the bank left is a silent grace); then,
-- in the same round trip, the bot's other open requests (so an answer can carry the next
-- decision back), registering the answering process's wake channel when it waits for
-- them. A token's bot that answers is noted as seen, whatever the outcome.
-- ARGV: bot, answer, id, decision prefix, limit, bot prefix, wake channel ('' for none), ids to skip...
local holder = token_bot(KEYS[4], ARGV[6])
if not holder then return {'unauthorized'} end
local now = clock()
if holder == ARGV[1] then seen(KEYS[5], now) end
if holder ~= ARGV[1] then return {'missing'} end
local closed = ARGV[6] .. ARGV[1] .. ':closed:'
local bot, status = decision_state(KEYS[1], ARGV[1], closed, ARGV[3], CLOSED_TTL)
if bot ~= ARGV[1] then return {'missing'} end
if status ~= 'pending' then return {status} end
if tonumber(redis.call('HGET', KEYS[1], 'deadline')) < now then return {'expired'} end
close(KEYS[1], closed, ARGV[3], 'answered', CLOSED_TTL)
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], 3600)
redis.call('ZREM', KEYS[3], ARGV[3])
listen(KEYS[6], ARGV[7], now)
local out = open_list(KEYS[3], ARGV[4], tonumber(ARGV[5]), set_of(8), now)
table.insert(out, 1, 'ok')
return out
