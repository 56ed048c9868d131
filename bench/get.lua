-- GET of one path, asking for gzip as a browser does:
--   wrk -s bench/get.lua URL -- SYSTEM TAG PATH
require "common"

function init(args)
  local _, rest = start(args)
  wrk.path = rest[1]
  wrk.headers["Accept-Encoding"] = "gzip"
end
