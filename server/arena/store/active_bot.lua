-- needs: token_bot.lua
-- The active bot holding a token (by the token's hash), in one round trip.
return token_bot(KEYS[1], ARGV[1])
