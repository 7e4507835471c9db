-- Shared Lua: note at ``key`` (the bot's ``seen``) that a bot talked to the API ``now``.
local function seen(key, now)
  redis.call('SET', key, string.format('%.6f', now), 'EX', 86400)
end
