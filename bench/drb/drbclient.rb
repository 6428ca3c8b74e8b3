# DRb client for the 2003 experiment: 100 fetch("test") calls, timed, as in the 2003
# drbclient.rb; repeated --runs times, printing each run and the median. Every reply is checked
# (shape, sharing and the cycle survive Marshal).
#
#   ruby drbclient.rb --uri druby://127.0.0.1:P [--calls 100] [--runs 5]
require 'drb'
require 'optparse'
require_relative 'fetch_model'

uri = nil
calls = 100
runs = 5
OptionParser.new do |o|
  o.on('--uri URI') { |v| uri = v }
  o.on('--calls N', Integer) { |v| calls = v }
  o.on('--runs N', Integer) { |v| runs = v }
end.parse!
abort 'usage: drbclient.rb --uri druby://127.0.0.1:P [--calls N] [--runs N]' unless uri

DRb.start_service
server = DRbObject.new_with_uri(uri)
abort 'drbclient: reply has the wrong shape' unless Fetch.valid_graph?(server.fetch('test'), 'test')

times = Array.new(runs) do
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  x = nil
  calls.times { x = server.fetch('test') }
  elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
  abort 'drbclient: reply has the wrong shape' unless Fetch.valid_graph?(x, 'test')
  puts format('Using drb: %.4f secs (%d calls)', elapsed, calls)
  elapsed
end
median = times.sort[times.size / 2]
puts format('RESULT stack=drb calls=%d runs=%d median_s=%.4f min_s=%.4f', calls, runs, median,
            times.min)
