-- needs: clock.lua
-- Shared Lua: a bot's open requests (ids past their real deadline dropped), soonest
-- shown deadline first, each completed with its shown deadline and the milliseconds left
-- until it (0 once it has passed: the answer is still taken until the real deadline),
-- skipping the ids in the set ``skip``; at most ``limit`` of them (all if limit <= 0).
-- The real deadline (the pending zset's score) is never shown, nor is the order by it:
-- it holds the bank left, which would mark the match. ``set_of(i)``: ARGV[i..] as a set.
local function open_list(pending, prefix, limit, skip, now)
  redis.call('ZREMRANGEBYSCORE', pending, '-inf', now)
  local found = {}
  for _, id in ipairs(redis.call('ZRANGE', pending, 0, -1)) do
    if not skip[id] then
      local f = redis.call('HMGET', prefix .. id, 'head', 'shown', 'status', 'deadline')
      if f[1] and f[3] == 'pending' then
        local shown = f[2] or f[4]    -- a request asked before shown deadlines existed
        table.insert(found, {tonumber(shown), id, f[1], shown})
      end
    end
  end
  table.sort(found, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  local out = {}
  for _, r in ipairs(found) do
    local left = math.max(0, math.floor((r[1] - now) * 1000))
    table.insert(out, r[3] .. ',"deadline":' .. r[4] .. ',"deadline_in_ms":' .. left .. '}')
    if limit > 0 and #out >= limit then break end
  end
  return out
end
local function set_of(first)
  local skip = {}
  for i = first, #ARGV do skip[ARGV[i]] = true end
  return skip
end
