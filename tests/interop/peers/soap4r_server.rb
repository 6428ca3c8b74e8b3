#!/usr/bin/ruby
# soap4r peer server (Debian's ruby-soap4r 2.0.5 on WEBrick): interop-encoded.wsdl's
# operations, RPC/encoded (SOAP 1.1 section 5), namespace urn:interop, at /interop/encoded.
#
# usage: soap4r_server.rb PORT
# Listens on 127.0.0.1:PORT and prints READY once listening. Requests over 4 MiB are refused
# with 413: REXML takes minutes over the 5 MB interop payload (docs/interop.md).
require_relative 'soap4r_support'
require 'soap/rpc/standaloneServer'
require 'soap/mapping'

NS = 'urn:interop'
MAX_REQUEST = 4 << 20

# The interop Struct as soap4r reads {urn:interop}Struct (`when` is stored as @v_when).
class InteropStruct; end

# addNumbers answers a Client fault; soap4r's router makes every exception a Server fault.
class ClientFault < StandardError; end

module ClientFaultCode
  def fault(error, wsdl_fault_details)
    answer = super
    if error.is_a?(ClientFault)
      code = SOAP::SOAPElement.new(nil, SOAP::FaultCode::Client)
      code.elename = SOAP::EleFaultCodeName
      answer.faultcode = code
    end
    answer
  end
end
SOAP::RPC::Router.prepend(ClientFaultCode)

module RequestSizeLimit
  def do_POST(req, res)
    # A chunked request has no Content-Length (WEBrick has read it whole by now).
    size = req['content-length'] ? req.content_length : req.body.to_s.bytesize
    return super unless size > MAX_REQUEST

    res.status = 413
    res['Connection'] = 'close'
  end
end
SOAP::RPC::SOAPlet.prepend(RequestSizeLimit)

# The operations; each echoes what it read.
class InteropServant
  def echoString(value)
    value.nil? ? '' : value
  end

  def echoInt(value)
    SOAP::SOAPInt.new(value)
  end

  def echoStruct(value)
    struct(value)
  end

  def echoArray(value)
    array = SOAP::SOAPArray.new(XSD::QName.new(NS, 'ArrayOfStruct'), 1, XSD::QName.new(NS, 'Struct'))
    (value || []).each { |item| array.add(struct(item)) }
    array
  end

  def addNumbers(a, b)
    raise ClientFault, 'negative' if a.negative? || b.negative?

    SOAP::SOAPInt.new(a + b)
  end

  def echoBinary(value)
    SOAP::SOAPBase64.new(value)
  end

  private

  # soap4r reads <when> into @v_when (a Ruby keyword) but would write it back as <v_when>:
  # the answer is built explicitly, as the soap4r client builds its requests.
  def struct(value)
    s = SOAP::SOAPStruct.new(XSD::QName.new(NS, 'Struct'))
    s.add('name', SOAP::SOAPString.new(value.instance_variable_get(:@name)))
    s.add('count', SOAP::SOAPInt.new(value.instance_variable_get(:@count)))
    s.add('price', SOAP::SOAPDouble.new(value.instance_variable_get(:@price)))
    s.add('when', SOAP::SOAPDateTime.new(value.instance_variable_get(:@v_when)))
    tags = SOAP::SOAPArray.new(XSD::QName.new(NS, 'ArrayOfString'), 1, XSD::XSDString::Type)
    (value.instance_variable_get(:@tags) || []).each { |t| tags.add(SOAP::SOAPString.new(t)) }
    s.add('tags', tags)
    note = value.instance_variable_get(:@note)
    s.add('note', note.nil? ? SOAP::SOAPNil.new : SOAP::SOAPString.new(note))
    s
  end
end

# The server: one servant, parameters named as in the WSDL (value/a/b in, result out).
class InteropServer < SOAP::RPC::StandaloneServer
  REGISTRY = SOAP::Mapping::EncodedRegistry.new.tap do |reg|
    reg.add(InteropStruct, SOAP::SOAPStruct, SOAP::Mapping::EncodedRegistry::TypedStructFactory,
            { type: XSD::QName.new(NS, 'Struct') })
  end

  def on_init
    self.mapping_registry = REGISTRY
    servant = InteropServant.new
    %w[echoString echoInt echoStruct echoArray echoBinary].each do |name|
      add_rpc_method(servant, name, [['in', 'value', nil], ['retval', 'result', nil]])
    end
    add_rpc_method(servant, 'addNumbers', [['in', 'a', nil], ['in', 'b', nil], ['retval', 'result', nil]])
  end
end

run_soap4r_server(InteropServer.new('Interop', NS, '127.0.0.1', Integer(ARGV.fetch(0))))
