-- needs: clock.lua
-- Shared Lua: close a decision, and find a closed one. A closed decision (answered or
-- expired) keeps only what refusing a late answer needs, its status, for at least ``ttl``
-- seconds: one field of a hash per bot and minute of Redis's clock (``closed`` is the
-- bot's ``{p}:bot:{name}:closed:``), which expires ``ttl`` seconds after its minute ends.
-- The field is the id's 16 bytes, not its 32 hex digits, and the value one letter. A key
-- of its own would cost about 180 bytes of Redis's memory whatever it held; a field costs
-- about 90 in a busy bot's hash and 40 in a quiet one's (docs/operations.md), and at
-- 10,000 decisions a second ten minutes of them is 6 million.
local CLOSED_BUCKET = 60
local CLOSED_CODES = {answered = 'a', expired = 'e', a = 'answered', e = 'expired'}
local function id_bytes(did)
  return (string.gsub(did, '%x%x', function(h) return string.char(tonumber(h, 16)) end))
end
local function close(key, closed, did, status, ttl)
  local minute = math.floor(clock() / CLOSED_BUCKET)
  redis.call('DEL', key)
  redis.call('HSET', closed .. minute, id_bytes(did), CLOSED_CODES[status])
  redis.call('EXPIREAT', closed .. minute, (minute + 1) * CLOSED_BUCKET + ttl)
end
-- The status of the bot's decision closed within ``ttl`` seconds, or nil.
local function closed_status(closed, did, ttl)
  local now, field = clock(), id_bytes(did)
  for minute = math.floor(now / CLOSED_BUCKET), math.floor((now - ttl) / CLOSED_BUCKET), -1 do
    local found = redis.call('HGET', closed .. minute, field)
    if found then return CLOSED_CODES[found] end
  end
  return nil
end
-- (bot, status) of a decision, open or closed; a closed one is looked for among ``bot``'s.
local function decision_state(key, bot, closed, did, ttl)
  local f = redis.call('HMGET', key, 'bot', 'status')
  if f[1] then return f[1], f[2] end
  local status = closed_status(closed, did, ttl)
  if status then return bot, status end
  return nil, nil
end
