#!/usr/bin/ruby
# soap4r peer client (Debian's ruby-soap4r 2.0.5): the VECTORS.md checks against the RPC/encoded
# binding of interop-encoded.wsdl (urn:interop, SOAP 1.1 section 5), soap4r's own style.
#
# usage: soap4r_client.rb --url URL
# echoString.5mb is left out: REXML takes minutes over a 5 MB message (docs/interop.md).
# Prints one line per check: PASS|FAIL <check> <detail>.
require 'optparse'
require 'soap/rpc/driver'
require 'time'

NS = 'urn:interop'
WEIRD = %q(<&>"')
UNICODE = 'héllo wörld ✓'
NON_BMP = 'clef 𝄞 grin 😀 cjk-ext-b 𠜎'
WHEN = Time.utc(2003, 11, 5, 12, 34, 56)

# The interop Struct, mapped to {urn:interop}Struct; tags is an ArrayOfString.
class InteropStruct
  attr_accessor :name, :count, :price, :when, :tags, :note

  def initialize(name, count, price, time, tags, note)
    @name = name
    @count = count
    @price = price
    @when = time
    @tags = tags
    @note = note
  end
end

def s1(time = WHEN)
  InteropStruct.new("#{UNICODE} #{WEIRD}", 7, 1234.5, time, ['alpha', UNICODE, WEIRD], 'a note')
end

def s2(price = -0.25, name = 'n')
  InteropStruct.new(name, 0, price, Time.utc(1999, 12, 31, 23, 59, 59), [], nil)
end

def a1000
  (0...1000).map do |i|
    InteropStruct.new("item-#{i}", i, i + 0.5, WHEN, i.even? ? ["t#{i}"] : [], i.even? ? "n#{i}" : nil)
  end
end

# 14:34:56.125+02:00 is the instant 12:34:56.125Z.
ZONED = Time.new(2003, 11, 5, 14, 34, Rational(56_125, 1000), '+02:00')

def short(value, limit = 120)
  text = value.inspect
  text.size <= limit ? text : "#{text[0, limit]}...(#{text.size} chars)"
end

def plain(value)
  value.is_a?(SOAP::SOAPBasetype) ? value.data : value
end

# soap4r stores an element named after a Ruby keyword (`when`) as @v_when.
def field(obj, key)
  %W[@#{key} @v_#{key}].each do |name|
    return plain(obj.instance_variable_get(name)) if obj.instance_variable_defined?(name)
  end
  nil
end

def instant(value)
  value = value.to_time if value.respond_to?(:to_time)
  value.is_a?(Time) ? value.utc.to_r : nil
end

def same_double(got, want)
  return false if got.nil?
  got = Float(got)
  return got.nan? if want.nan?
  got == want && (1.0 / got).positive? == (1.0 / want).positive?
end

def struct_diff(got, want)
  return 'struct missing' if got.nil?
  %w[name count].each do |key|
    g = field(got, key)
    w = want.__send__(key)
    return "#{key}: got #{short(g)} want #{short(w)}" unless g == w
  end
  price = field(got, 'price')
  return "price: got #{price.inspect} want #{want.price.inspect}" unless same_double(price, want.price)
  return "when: got #{field(got, 'when')} want #{want.when}" unless instant(field(got, 'when')) == instant(want.when)
  tags = (field(got, 'tags') || []).to_a.map { |t| plain(t) }
  return "tags: got #{short(tags)} want #{short(want.tags)}" unless tags == want.tags
  note = field(got, 'note')
  return "note: got #{note.inspect} want #{want.note.inspect}" unless note == want.note
  nil
end

def equal(want)
  ->(got) { got == want && got.instance_of?(want.class) ? nil : "got #{short(got)}" }
end

def struct_equal(want)
  ->(got) { struct_diff(got, want) }
end

def array_equal(want)
  lambda do |got|
    got = (got || []).to_a
    return "length: got #{got.size} want #{want.size}" unless got.size == want.size
    got.zip(want).each_with_index do |(g, w), i|
      diff = struct_diff(g, w)
      return "[#{i}] #{diff}" if diff
    end
    nil
  end
end

def fault_check(fault)
  code = fault.faultcode.data.to_s
  reason = fault.faultstring.data.to_s
  return "faultcode #{code.inspect}" unless code.split(':').last == 'Client'
  return "faultstring #{reason.inspect}" unless reason == 'negative'
  nil
end

def checks
  a = a1000
  [
    ['echoString.unicode', :echoString, [UNICODE], equal(UNICODE)],
    ['echoString.xmlchars', :echoString, [WEIRD], equal(WEIRD)],
    ['echoString.empty', :echoString, [''], equal('')],
    ['echoInt.42', :echoInt, [42], equal(42)],
    ['echoInt.min', :echoInt, [-2_147_483_648], equal(-2_147_483_648)],
    ['echoInt.max', :echoInt, [2_147_483_647], equal(2_147_483_647)],
    ['echoStruct.full', :echoStruct, [s1], struct_equal(s1)],
    ['echoStruct.nilnote', :echoStruct, [s2], struct_equal(s2)],
    ['echoArray.empty', :echoArray, [[]], array_equal([])],
    ['echoArray.one', :echoArray, [[s1]], array_equal([s1])],
    ['echoArray.1000', :echoArray, [a], array_equal(a)],
    ['addNumbers.ok', :addNumbers, [2, 3], equal(5)],
    ['addNumbers.fault', :addNumbers, [-1, 5], nil],
    ['echoBinary.bytes', :echoBinary, [(0..255).to_a.pack('C*')], nil],
    ['echoString.nonbmp', :echoString, [NON_BMP], equal(NON_BMP)],
    ['echoStruct.zoned', :echoStruct, [s1(ZONED)], struct_equal(s1(ZONED))],
    ['echoStruct.dblmax', :echoStruct, [s2(Float::MAX, 'extreme')], struct_equal(s2(Float::MAX, 'extreme'))],
    ['echoStruct.dbldenorm', :echoStruct, [s2(5e-324, 'extreme')], struct_equal(s2(5e-324, 'extreme'))],
    ['echoStruct.negzero', :echoStruct, [s2(-0.0, 'extreme')], struct_equal(s2(-0.0, 'extreme'))],
    ['echoStruct.inf', :echoStruct, [s2(-Float::INFINITY, 'extreme')],
     struct_equal(s2(-Float::INFINITY, 'extreme'))],
    ['echoStruct.nan', :echoStruct, [s2(Float::NAN, 'extreme')], struct_equal(s2(Float::NAN, 'extreme'))]
  ]
end

# soap4r's default mapping writes a Ruby object as a struct of its instance variables in the
# class's namespace; the registry names the interop types instead.
def registry
  reg = SOAP::Mapping::EncodedRegistry.new
  reg.add(InteropStruct, SOAP::SOAPStruct, SOAP::Mapping::EncodedRegistry::TypedStructFactory,
          { type: XSD::QName.new(NS, 'Struct') })
  reg
end

def soap_value(value)
  case value
  when InteropStruct
    s = SOAP::SOAPStruct.new(XSD::QName.new(NS, 'Struct'))
    s.add('name', SOAP::SOAPString.new(value.name))
    s.add('count', SOAP::SOAPInt.new(value.count))
    s.add('price', SOAP::SOAPDouble.new(value.price))
    s.add('when', SOAP::SOAPDateTime.new(value.when))
    tags = SOAP::SOAPArray.new(XSD::QName.new(NS, 'ArrayOfString'), 1, XSD::XSDString::Type)
    value.tags.each { |t| tags.add(SOAP::SOAPString.new(t)) }
    s.add('tags', tags)
    s.add('note', value.note.nil? ? SOAP::SOAPNil.new : SOAP::SOAPString.new(value.note))
    s
  when Array
    array = SOAP::SOAPArray.new(XSD::QName.new(NS, 'ArrayOfStruct'), 1, XSD::QName.new(NS, 'Struct'))
    value.each { |v| array.add(soap_value(v)) }
    array
  when Integer then SOAP::SOAPInt.new(value)
  else value
  end
end

def main
  url = nil
  OptionParser.new { |o| o.on('--url URL') { |v| url = v } }.parse!
  driver = SOAP::RPC::Driver.new(url, NS)
  driver.mapping_registry = registry
  driver.options['protocol.http.receive_timeout'] = 120
  driver.add_rpc_method('echoString', 'value')
  driver.add_rpc_method('echoInt', 'value')
  driver.add_rpc_method('echoStruct', 'value')
  driver.add_rpc_method('echoArray', 'value')
  driver.add_rpc_method('addNumbers', 'a', 'b')
  driver.add_rpc_method('echoBinary', 'value')
  failures = 0
  checks.each do |name, operation, args, compare|
    problem =
      begin
        args = args.map { |a| operation == :echoBinary ? SOAP::SOAPBase64.new(a) : soap_value(a) }
        answer = driver.__send__(operation, *args)
        if operation == :addNumbers && compare.nil?
          "no fault, got #{short(answer)}"
        elsif operation == :echoBinary
          answer == (0..255).to_a.pack('C*') ? nil : "got #{short(answer)}"
        else
          compare.call(answer)
        end
      rescue SOAP::FaultError => e
        operation == :addNumbers && compare.nil? ? fault_check(e) : "fault #{e.faultcode}: #{short(e.message)}"
      rescue StandardError => e
        "#{e.class}: #{short(e.message)}"
      end
    failures += 1 if problem
    puts "#{problem ? 'FAIL' : 'PASS'} #{name} #{problem}".rstrip
    $stdout.flush
  end
  exit(failures.zero? ? 0 : 1)
end

main
