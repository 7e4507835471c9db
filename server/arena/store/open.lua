-- needs: open_list.lua seen.lua
-- The open requests of a bot (one round trip for the long-poll), noting that it asked.
local now = clock()
seen(KEYS[2], now)
return open_list(KEYS[1], ARGV[1], tonumber(ARGV[2]), set_of(3), now)
