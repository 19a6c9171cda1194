-- wrk's request generator for the GraphQL benchmark: the same bodies as graphql-workload.ts's bodyOf, built per
-- request from a counter so reads scatter over the catalog and every write changes its value.
-- Arguments (after `--`): kind (floor|query|update), number of datasets, bearer token.
local kind, datasets, token
local seq = 0

function init(args)
  kind = args[1]
  datasets = tonumber(args[2])
  token = args[3]
  -- Each wrk thread has its own Lua state: start the threads at different points of the sequence.
  seq = math.random(0, datasets - 1)
end

local function urn(i)
  return "urn:li:dataset:(urn:li:dataPlatform:hive,bench.table_" .. i .. ",PROD)"
end

function request()
  seq = seq + 1
  local u = urn((seq * 7919) % datasets)
  local body
  if kind == "floor" then
    body = '{"query":"{ __typename }","variables":{"urn":"' .. u .. '"}}'
  elseif kind == "query" then
    body = '{"query":"query getDataset($urn: String!) { dataset(urn: $urn) { deprecation { deprecated decommissionTime } } }","variables":{"urn":"' .. u .. '"}}'
  else
    local deprecated = (seq % 2 == 0) and "true" or "false"
    body = '{"query":"mutation updateDeprecation($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }","variables":{"input":{"urn":"' .. u .. '","deprecated":' .. deprecated .. ',"note":"bench write ' .. seq .. '"}}}'
  end
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }, body)
end
