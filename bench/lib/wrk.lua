-- wrk script of `make bench`. Prints one line "WRK_JSON {...}" with the run's figures.
-- Without arguments every request is the command line's GET (with its -H headers). With
-- arguments, `-- BODY TOKEN...`, each request POSTs the JSON BODY as the next user in turn
-- (Authorization: Bearer TOKEN), so concurrent connections act as different shoppers.
-- With `-- search WORD...`, each request asks the command line's path for another search:
-- q=WORD (the words in turn) and a maxPrice that changes every time (above every part's
-- price, so it filters nothing out): no two requests of a run share a URL, no cache helps.

local body = nil
local tokens = {}
local words = nil
local turn = 0

function init(args)
  if args[1] == "search" then
    words = {}
    for i = 2, #args do
      words[#words + 1] = args[i]
    end
    turn = math.random(1000000)
  elseif #args > 0 then
    body = args[1]
    for i = 2, #args do
      tokens[#tokens + 1] = args[i]
    end
    turn = math.random(#tokens)
  end
end

function request()
  if words ~= nil then
    turn = turn + 1
    local sep = string.find(wrk.path, "?", 1, true) and "&" or "?"
    local word = words[turn % #words + 1]
    return wrk.format(nil, wrk.path .. sep .. "q=" .. word .. "&maxPrice=" .. (100000 + turn))
  end
  if body == nil then
    return wrk.format()
  end
  turn = turn % #tokens + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. tokens[turn],
  }
  return wrk.format("POST", nil, headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests": %d, "duration_us": %d, "status_errors": %d, "socket_errors": %d, '
      .. '"p50_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)
  ))
end
