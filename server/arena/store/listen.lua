-- needs: clock.lua
-- Shared Lua: the API processes holding a bot's long-polls. Each process listens on a
-- wake channel of its own; a long-poll's read registers its process in the bot's
-- ``listeners`` hash (channel suffix -> Redis time until which it counts) in the same
-- script as the read, so a decision asked after the read is published to that process,
-- and one asked before is in what the read returns. A registration lasts LISTEN_TTL
-- seconds past the last read or answer that made it; a long-poll reads again at least
-- every 5 s while it waits, and a bot in play answers far more often.
local function listen(listeners, channel, now)
  if channel ~= '' then
    redis.call('HSET', listeners, channel, string.format('%.6f', now + LISTEN_TTL))
    redis.call('EXPIRE', listeners, LISTEN_TTL)
  end
end
-- The wake channels of the processes listening for a bot now, forgetting the lapsed.
local function listening(listeners, prefix, now)
  local channels = {}
  local found = redis.call('HGETALL', listeners)
  for i = 1, #found, 2 do
    if tonumber(found[i + 1]) > now then
      table.insert(channels, prefix .. found[i])
    else
      redis.call('HDEL', listeners, found[i])
    end
  end
  return channels
end
