-- wrk script: each request a query of bench/query_latency/queries.txt, in turn, alternating the
-- search page and the JSON API; responses other than 200 are counted and printed at the end.
local queries = {}
for line in io.lines(os.getenv("CANON_QUERIES")) do
  if line ~= "" and line:sub(1, 1) ~= "#" then
    queries[#queries + 1] = line:gsub("([^%w%-%._~])", function(c) return string.format("%%%02X", string.byte(c)) end)
  end
end
local n = 0
request = function()
  n = n + 1
  local q = queries[(n % #queries) + 1]
  if n % 2 == 0 then
    return wrk.format("GET", "/search?q=" .. q)
  end
  return wrk.format("GET", "/api/search?q=" .. q .. "&limit=10")
end
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-200 responses: %d\n", bad))
end
