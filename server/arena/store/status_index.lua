-- Shared Lua: put a tournament in the index of its stored status (a stopped one: finished,
-- cancelled, failed, interrupted) and out of the others; a queued or running one is in
-- none (the active set holds those). The indexes are KEYS[first..first+3] in STOPPED's
-- order (listing.py).
local function index_status(hash, first, tid, num)
  local status = redis.call('HGET', hash, 'status')
  local names = {'finished', 'cancelled', 'failed', 'interrupted'}
  for i = 1, 4 do
    if names[i] == status then
      redis.call('ZADD', KEYS[first + i - 1], num, tid)
    else
      redis.call('ZREM', KEYS[first + i - 1], tid)
    end
  end
  return status
end
