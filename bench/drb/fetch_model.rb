# The object graph of shared/bench/seed-2003 (fetch.wsdl), as plain Ruby objects for DRb.
# Both drbserver.rb and drbclient.rb load it: DRb marshals by value, and Marshal needs the class
# on both ends (the 2003 scripts shared myservice.rb the same way).
module Fetch
  # A configuration node: children is an Array of Setting, params a Hash String => Value.
  class Setting
    attr_accessor :status, :parent, :children, :stype, :params

    def initialize(status, parent, stype)
      @status = status
      @parent = parent
      @children = []
      @stype = stype
      @params = {}
    end
  end

  # A leaf value; "new" is a member name, as in the WSDL.
  class Value
    attr_accessor :errcode, :new, :errtext, :cur

    def initialize(errcode, new, errtext, cur)
      @errcode = errcode
      @new = new
      @errtext = errtext
      @cur = cur
    end
  end

  # root {status "ok", parent nil, stype "root:"+param, children [c1, c2], params {a: v1, b: v1,
  # c: v2}}; c1 {ok, parent root, params {x: v2}}; c2 {warn, parent root, params {}}.
  # v1 is shared under two keys, v2 across two maps, and both children point back at the root.
  def self.graph(param)
    v1 = Value.new(0, '1', 'none', '0')
    v2 = Value.new(2, 'héllo', 'out of range <&>', '5')
    root = Setting.new('ok', nil, "root:#{param}")
    c1 = Setting.new('ok', root, 'child')
    c2 = Setting.new('warn', root, 'child')
    root.children = [c1, c2]
    root.params = { 'a' => v1, 'b' => v1, 'c' => v2 }
    c1.params = { 'x' => v2 }
    root
  end

  # True if `root` has the shape graph(param) builds, sharing and cycle included.
  def self.valid_graph?(root, param)
    return false unless root.is_a?(Setting) && root.stype == "root:#{param}" && root.parent.nil?
    c1, c2 = root.children
    return false unless root.children.size == 2 && c1.parent.equal?(root) && c2.parent.equal?(root)
    p = root.params
    p['a'].equal?(p['b']) && p['c'].equal?(c1.params['x']) && !p['a'].equal?(p['c']) &&
      p['c'].new == 'héllo' && p['c'].errtext == 'out of range <&>' && c2.status == 'warn' &&
      c2.params.empty?
  end
end
