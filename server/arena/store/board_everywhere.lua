-- KEYS[1] the tournament's match list; ARGV[1] the match key prefix ("{p}:match:"), ARGV[2] the board.
local board, playing = tonumber(ARGV[2]), 0
for _, mid in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local match = redis.call('HMGET', ARGV[1] .. mid, 'spec', 'status')
  local spec = cjson.decode(match[1])
  if spec.first <= board and board <= spec.last then
    if redis.call('HEXISTS', ARGV[1] .. mid .. ':pairs', ARGV[2]) == 1 then
      playing = playing + 1
    elseif match[2] ~= 'complete' then     -- a complete (decided) match never plays it
      return 0
    end
  end
end
if playing > 0 then return 1 end
return 0
