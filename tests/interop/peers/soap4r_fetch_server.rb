#!/usr/bin/ruby
# soap4r fetch server (Debian's ruby-soap4r 2.0.5 on WEBrick): fetch.wsdl's one operation,
# RPC/encoded, namespace urn:fetch, at /fetch; fetch(param) returns the graph of
# bench/drb/fetch_model.rb (shared Values, children pointing back at the root), which soap4r
# writes with multi-refs for the objects referenced more than once.
#
# usage: soap4r_fetch_server.rb PORT
# Listens on 127.0.0.1:PORT and prints READY once listening.
require_relative 'soap4r_support'
require 'soap/rpc/standaloneServer'
require 'soap/mapping'
require_relative '../../../bench/drb/fetch_model'

NS = 'urn:fetch'

# The servant: the graph built per call, as drbserver.rb and lather-fetch-server do.
class FetchServant
  def fetch(param)
    Fetch.graph(param)
  end
end

# Setting and Value typed {urn:fetch}Setting / {urn:fetch}Value (fetch.wsdl's types) instead
# of soap4r's Ruby type namespace; params (a Hash) become apachesoap:Map.
class FetchServer < SOAP::RPC::StandaloneServer
  REGISTRY = SOAP::Mapping::EncodedRegistry.new.tap do |reg|
    { Fetch::Setting => 'Setting', Fetch::Value => 'Value' }.each do |klass, name|
      reg.add(klass, SOAP::SOAPStruct, SOAP::Mapping::EncodedRegistry::TypedStructFactory,
              { type: XSD::QName.new(NS, name) })
    end
  end

  def on_init
    self.mapping_registry = REGISTRY
    add_rpc_method(FetchServant.new, 'fetch', [['in', 'param', nil], ['retval', 'return', nil]])
  end
end

run_soap4r_server(FetchServer.new('Fetch', NS, '127.0.0.1', Integer(ARGV.fetch(0))))
