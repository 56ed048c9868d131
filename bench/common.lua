-- What every scenario script shares. cmd/salaula-bench runs each one as
--
--   wrk -s bench/SCENARIO.lua http://ADDR -- SYSTEM TAG [ARGS...]
--
-- with LUA_PATH set so that `require "common"` finds this file. SYSTEM is
-- "salaula" or "pocketbase", TAG is unique to the run. This file numbers
-- wrk's threads, gives each request its own e-mail address, counts the
-- requests sent and, when wrk is done, prints the one line the
-- orchestrator reads (latencies in microseconds):
--
--   salaula-bench {"requests":...,"ok":...,"sent":...,"errors":...,"duration_us":...,"p50_us":...,"p99_us":...}

local threads = {}

-- setup runs in wrk's main Lua state once for each thread, before the
-- thread's own init: it gives the thread its number.
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

-- start reads the arguments after "--" (wrk puts the URL before them,
-- at args[0]) and returns the system and the rest (ARGS).
function start(args)
  system, tag = args[1], args[2]
  local rest = {}
  for i = 3, #args do
    rest[#rest + 1] = args[i]
  end
  return system, rest
end

sent = 0 -- requests this thread has made; done reads it

-- email is a new address for each request: the run's tag, the thread's
-- number and its count of requests.
function email()
  sent = sent + 1
  return string.format("%s-%d-%d@example.com", tag, id, sent)
end

-- writes makes the calling script one whose requests are POSTs of a JSON
-- body with a new e-mail address each, to each system's own path:
--   writes{salaula = {PATH, BODY}, pocketbase = {PATH, BODY}}
-- where BODY holds %s for the address.
function writes(by_system)
  local path, body
  function init(args)
    local system = start(args)
    local r = assert(by_system[system], "no request for system " .. tostring(system))
    path, body = r[1], r[2]
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
  end
  function request()
    return wrk.format(nil, path, nil, body:format(email()))
  end
end

-- done runs in the main state when the load is over. "sent" counts the
-- requests made through email(), and the one wrk makes at the start to
-- check the script; wrk stops with some of them unanswered. Scripts
-- whose requests are all alike send one prepared request and report 0.
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do
    n = n + (t:get("sent") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'salaula-bench {"requests":%d,"ok":%d,"sent":%d,"errors":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.requests - e.status, n,
    e.connect + e.read + e.write + e.timeout + e.status,
    summary.duration, latency:percentile(50), latency:percentile(99)))
end
