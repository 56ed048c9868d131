-- Password sign-ins of one account, always the same request:
--   wrk -s bench/password-sign-in.lua URL -- SYSTEM TAG EMAIL PASSWORD
require "common"

function init(args)
  local system, rest = start(args)
  local email, password = rest[1], rest[2]
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  if system == "salaula" then
    wrk.path = "/auth/v1/token?grant_type=password"
    wrk.body = string.format('{"email":"%s","password":"%s"}', email, password)
  else
    wrk.path = "/api/collections/users/auth-with-password"
    wrk.body = string.format('{"identity":"%s","password":"%s"}', email, password)
  end
end
