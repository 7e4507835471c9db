-- needs: open_list.lua seen.lua listen.lua
-- The open requests of a bot (one round trip for the long-poll), noting that it asked,
-- and registering the asking process's wake channel (ARGV[3], '' for none) when it waits.
local now = clock()
seen(KEYS[2], now)
listen(KEYS[3], ARGV[3], now)
return open_list(KEYS[1], ARGV[1], tonumber(ARGV[2]), set_of(4), now)
