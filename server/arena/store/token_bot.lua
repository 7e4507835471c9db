-- Shared Lua: the name of the active bot holding a token (by the token's hash).
local function token_bot(token_key, bot_prefix)
  local name = redis.call('GET', token_key)
  if not name then return false end
  if redis.call('HGET', bot_prefix .. name, 'status') ~= '"active"' then return false end
  return name
end
