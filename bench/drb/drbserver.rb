# DRb server for the 2003 experiment (shared/bench/seed-2003): fetch(param) returns the object
# graph fetch.wsdl describes, built per call like a SOAP server would.
#
#   ruby drbserver.rb [--port P]     (127.0.0.1 only; port 0 picks a free port)
#
# Prints "listening on druby://127.0.0.1:P" when ready.
require 'drb'
require 'optparse'
require_relative 'fetch_model'

# The remote object.
class FetchService
  def fetch(param)
    Fetch.graph(param)
  end
end

port = 9001
OptionParser.new do |o|
  o.on('--port P', Integer) { |v| port = v }
end.parse!

DRb.start_service("druby://127.0.0.1:#{port}", FetchService.new)
puts "listening on #{DRb.uri}"
$stdout.flush
DRb.thread.join
