-- needs: clock.lua
-- How many open decisions a bot has (expired ones not counted).
return redis.call('ZCOUNT', KEYS[1], '(' .. clock(), '+inf')
