-- test/field/wrk.lua -- the field test's normal traffic for wrk: each request
-- picks a route (numeric IDs, UUIDs, query strings, percent-encoding) and a
-- method, so that the log holds a hundred-odd routes of varied latency.
local uuids = {
	"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "9b2f8c1e-7a4d-4e2b-8f61-2c5d0e9a7b13",
	"0d6c1a52-52f0-4c43-a0b4-6a3c1f7e8d29", "c8e1f4a7-1b3d-4f5e-9a2c-7d6b5e4f3a21",
	"5a7d9e2b-3c4f-4a1b-8e6d-1f2a3b4c5d6e", "e4d3c2b1-a0f9-4e8d-b7c6-5a4b3c2d1e0f",
	"11111111-2222-4333-8444-555555555555", "abcdefab-cdef-4abc-9def-abcdefabcdef",
}
local counter = 0

local function pick()
	counter = counter + 1
	local r = math.random(100)
	if r <= 25 then
		return "GET", "/users/" .. math.random(30) .. "/avatar"
	elseif r <= 35 then
		return "GET", "/users/" .. math.random(30) .. "/profile?tab=" .. math.random(3)
	elseif r <= 50 then
		return "GET", "/api/v1/orders/" .. uuids[math.random(#uuids)]
	elseif r <= 55 then
		return "POST", "/api/v1/orders"
	elseif r <= 62 then
		return "GET", "/search?q=" .. math.random(1000) .. "&page=" .. math.random(5)
	elseif r <= 66 then
		return "GET", "/search?q=caf%C3%A9+au+lait&lang=fr"
	elseif r <= 72 then
		return "GET", "/files/%E2%82%AC/report%20" .. math.random(4) .. ".pdf"
	elseif r <= 82 then
		return "GET", "/static/app" .. math.random(6) .. ".js?v=" .. math.random(100)
	elseif r <= 85 then
		return "GET", "/static/logo.png"
	elseif r <= 90 then
		return "GET", "/slow/report/" .. math.random(3)
	elseif r <= 93 then
		return "DELETE", "/api/v1/sessions/" .. math.random(10)
	else
		return "GET", "/health"
	end
end

request = function()
	local method, path = pick()
	local body = nil
	local headers = {}
	if method == "POST" then
		body = '{"item": ' .. counter .. '}'
		headers["Content-Type"] = "application/json"
	end
	headers["User-Agent"] = "wrk-field/1.0"
	if counter % 7 == 0 then
		headers["Referer"] = "http://127.0.0.1/page?from=" .. counter
	end
	return wrk.format(method, path, headers, body)
end
