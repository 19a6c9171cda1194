-- wrk's request for benchmarks that send one fixed request again and again (bench/search.bench.ts).
-- Arguments (after `--`): method, bearer token (or "-"), body (or "-").
local method, token, body

function init(args)
  method = args[1]
  token = args[2]
  body = args[3]
end

function request()
  local headers = { ["Content-Type"] = "application/json" }
  if token ~= "-" then headers["Authorization"] = "Bearer " .. token end
  return wrk.format(method, nil, headers, body ~= "-" and body or nil)
end
