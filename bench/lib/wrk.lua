-- wrk script of `make bench`. Prints one line "WRK_JSON {...}" with the run's figures.
-- Without arguments every request is the command line's GET (with its -H headers). With
-- arguments, `-- BODY TOKEN...`, each request POSTs the JSON BODY as the next user in turn
-- (Authorization: Bearer TOKEN), so concurrent connections act as different shoppers.

local body = nil
local tokens = {}
local turn = 0

function init(args)
  if #args > 0 then
    body = args[1]
    for i = 2, #args do
      tokens[#tokens + 1] = args[i]
    end
    turn = math.random(#tokens)
  end
end

function request()
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
