-- needs: status_index.lua
-- Put a tournament in the index of its stored status. KEYS[1] its hash, KEYS[2..5] the
-- status indexes; ARGV[1] its id, ARGV[2] its number.
return index_status(KEYS[1], 2, ARGV[1], ARGV[2])
