-- Extend (ARGV[2] ms) or, with ARGV[2] = 0, delete each key that still holds ARGV[1].
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', key, ARGV[2]) else redis.call('DEL', key) end
  end
end
return 1
