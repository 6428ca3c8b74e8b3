#!/usr/bin/ruby
# soap4r fetch client (Debian's ruby-soap4r 2.0.5): calls fetch("test") of fetch.wsdl
# (RPC/encoded, urn:fetch) and checks every graph it reads back as bench/drb/drbclient.rb does:
# field values, v1 one object under two keys, v2 one object across two maps, and both
# children's parent the root object itself.
#
# usage: soap4r_fetch_client.rb --url URL [--calls N]
# Prints "RESULT stack=soap4r calls=N median_s=..." and exits 0 when every graph was right;
# otherwise prints what differed and exits 1.
require 'optparse'
require 'soap/rpc/driver'

url = nil
calls = 10
OptionParser.new do |o|
  o.on('--url URL') { |v| url = v }
  o.on('--calls N', Integer) { |v| calls = v }
end.parse!
abort 'usage: soap4r_fetch_client.rb --url URL [--calls N]' unless url

# soap4r reads the untyped-to-it structs as SOAP::Mapping::Object (members by name: `new` is
# a member, so no accessor methods) and apachesoap:Map as a Hash.
def graph_problem(root, param)
  return "root is #{root.class}" unless root.is_a?(SOAP::Mapping::Object)
  return "root stype #{root['stype'].inspect}" unless root['stype'] == "root:#{param}"
  return 'root has a parent' unless root['parent'].nil?

  children = root['children']
  return "children #{children.inspect[0, 80]}" unless children.is_a?(Array) && children.size == 2

  c1, c2 = children
  return 'a child does not point back at the root object' unless
    c1['parent'].equal?(root) && c2['parent'].equal?(root)

  p = root['params']
  return "params is #{p.class}" unless p.is_a?(Hash) && c1['params'].is_a?(Hash)
  return 'v1 is not one object under a and b' unless p['a'].equal?(p['b'])
  return 'v2 is not one object across the two maps' unless p['c'].equal?(c1['params']['x'])
  return 'a and c are the same object' if p['a'].equal?(p['c'])

  v1 = p['a']
  v2 = p['c']
  return "v1 #{v1.inspect}" unless
    v1['errcode'].to_i.zero? && v1['new'] == '1' && v1['errtext'] == 'none' && v1['cur'] == '0'
  return "v2 #{v2.inspect}" unless v2['errcode'].to_i == 2 && v2['new'] == 'héllo' &&
                                   v2['errtext'] == 'out of range <&>' && v2['cur'] == '5'
  return "c2 #{c2['status'].inspect}" unless c2['status'] == 'warn' && c2['params'].empty?

  nil
end

driver = SOAP::RPC::Driver.new(url, 'urn:fetch')
driver.add_method_with_soapaction('fetch', 'urn:fetch#fetch', 'param')
times = []
calls.times do
  started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  root = driver.fetch('test')
  times << Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  problem = graph_problem(root, 'test')
  next unless problem

  puts "FAIL #{problem}"
  exit 1
end
puts format('RESULT stack=soap4r calls=%d median_s=%.4f', calls, times.sort[times.size / 2])
