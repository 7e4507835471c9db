-- needs: clock.lua listen.lua
-- Publish a decision request for a bot in one round trip: refuse if the bot is faulty in
-- the match, else start its time bank if new, and set two deadlines on Redis's clock:
-- the real one, the per-decision limit plus what is left of the bank (the answer is
-- taken until then, and the pending zset is scored by it), and the shown one, the limit
-- only, the same for every decision of every match. The bot's name is published on
-- the wake channel of each API process holding its long-polls (the bot's listeners,
-- KEYS[5]; channels named ARGV[8] .. their suffix), which wait on an event in memory,
-- not on a Redis connection each, with the decision's id and the
-- request as ``open_list`` would serve it now, cut before its milliseconds left, which
-- come first (the API counts them down until it serves the request): a woken long-poll
-- serves it without reading it back.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return {'faulty'} end
redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
local bank = math.max(tonumber(redis.call('HGET', KEYS[2], ARGV[1])), 0)
local now = clock()
local deadline = string.format('%.6f', now + (tonumber(ARGV[3]) + bank) / 1000)
local shown = string.format('%.6f', now + tonumber(ARGV[3]) / 1000)
redis.call('HSET', KEYS[3], 'bot', ARGV[1], 'head', ARGV[5], 'legal', ARGV[6], 'seat', ARGV[7],
           'deadline', deadline, 'shown', shown, 'opened', string.format('%.6f', now), 'status', 'pending')
redis.call('EXPIRE', KEYS[3], 3600)
redis.call('ZADD', KEYS[4], deadline, ARGV[4])
local left = math.max(0, math.floor((tonumber(shown) - now) * 1000))
local message = ARGV[1] .. '\n' .. ARGV[4] .. '\n' .. left .. '\n' ..
                ARGV[5] .. ',"deadline":' .. shown .. ',"deadline_in_ms":'
for _, channel in ipairs(listening(KEYS[5], ARGV[8], now)) do
  redis.call('PUBLISH', channel, message)
end
return {'open', string.format('%.6f', now), deadline}
