-- make bench-real: a Lua 5.4 workload of this project (no Lua test or
-- benchmark script ships in Debian's lua5.4 source): recursion, tables,
-- strings, closures and sorting, each printing a checksum so that every
-- emulator's output can be compared byte for byte.
local scale = tonumber(arg[1]) or 1

local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(24 + scale))

-- a deterministic pseudo-random sequence (an LCG in integers)
local seed = 12345
local function rnd(m) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m end

local t = {}
for i = 1, 60000 * scale do t[i] = rnd(1000000) end
table.sort(t)
local sum = 0
for i = 1, #t, 97 do sum = (sum + t[i] * i) % 1000000007 end
print("sort", #t, sum)

local words = {}
for i = 1, 20000 * scale do
  words[#words + 1] = string.format("w%05d", rnd(5000))
end
local text = table.concat(words, " ")
local counts = {}
for w in text:gmatch("%S+") do counts[w] = (counts[w] or 0) + 1 end
local distinct, top = 0, 0
for _, c in pairs(counts) do distinct = distinct + 1; if c > top then top = c end end
print("words", #text, distinct, top, (text:gsub("w0", "W")):len())

local function counter()
  local n = 0
  return function(k) n = n + k; return n end
end
local acc = 0
for i = 1, 300 * scale do
  local c = counter()
  for j = 1, 200 do acc = (acc + c(j)) % 65521 end
end
print("closures", acc)

local m = {}
for i = 1, 120 do m[i] = {}; for j = 1, 120 do m[i][j] = (i * j) % 7 end end
local tr = 0
for _ = 1, scale do
  for i = 1, 120 do for j = 1, 120 do tr = tr + m[i][j] * m[j][i] end end
end
print("matrix", tr)
