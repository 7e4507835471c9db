-- Store board-pair records once each (HSETNX), advance the tournament's progress and mark
-- the match complete, in one step: a retried job never counts a pair twice, and a match
-- is completed exactly once. Nothing is stored for a match already complete (decided).
-- KEYS: the match's pairs, scores, hash; the tournament's hash, complete set; the match's luck.
-- ARGV[1] the match id, ARGV[2] its board count, then (board, record, score, luck or '') fours.
if redis.call('SISMEMBER', KEYS[5], ARGV[1]) == 1 then return {0, redis.call('SCARD', KEYS[5])} end
local added = 0
for i = 3, #ARGV, 4 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    if ARGV[i + 3] ~= '' then redis.call('HSET', KEYS[6], ARGV[i], ARGV[i + 3]) end
    added = added + 1
  end
end
if added > 0 then redis.call('HINCRBY', KEYS[4], 'pairs_done', added) end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) and redis.call('SADD', KEYS[5], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[3], 'status', 'complete')
end
return {added, redis.call('SCARD', KEYS[5])}
