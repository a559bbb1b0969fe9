-- wrk: POST /transactions with a new Idempotency-Key each time (a repeated key would be a replay), as a merchant pays.
-- The path, the key and the body come from the environment (PAYKIT_BENCH_PATH, PAYKIT_BENCH_AUTH, PAYKIT_BENCH_BODY).
local counter = 0
local path = os.getenv("PAYKIT_BENCH_PATH")
local auth = os.getenv("PAYKIT_BENCH_AUTH")
local body = os.getenv("PAYKIT_BENCH_BODY")
local thread_id = tostring(math.random(1, 1000000000))

request = function()
  counter = counter + 1
  return wrk.format("POST", path, {
    ["Accept"] = "application/json",
    ["Content-Type"] = "application/json",
    ["Authorization"] = auth,
    ["Idempotency-Key"] = "bench-" .. thread_id .. "-" .. counter,
  }, body)
end
