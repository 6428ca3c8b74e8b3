// WSDL 1.1 components: messages, portTypes, bindings (SOAP 1.1/1.2, MIME), services.
#include <algorithm>

#include "loader.hpp"

namespace lather::wsdl {
namespace {

constexpr std::string_view wsdl_ns = "http://schemas.xmlsoap.org/wsdl/";
constexpr std::string_view soap11_ns = "http://schemas.xmlsoap.org/wsdl/soap/";
constexpr std::string_view soap12_ns = "http://schemas.xmlsoap.org/wsdl/soap12/";
constexpr std::string_view mime_ns = "http://schemas.xmlsoap.org/wsdl/mime/";
// WS-Addressing Metadata (wsam, and the 2007/02 Candidate Recommendation's namespace that CXF
// samples use), the WSDL binding's namespaces (wsaw, and the 2006/02 draft's),
// WS-Policy 1.5 and 1.2, WS-Security utility (wsu:Id of a policy).
constexpr std::string_view wsam_ns = "http://www.w3.org/2007/05/addressing/metadata";
constexpr std::string_view wsam_cr_ns = "http://www.w3.org/2007/02/addressing/metadata";
constexpr std::string_view wsaw_ns = "http://www.w3.org/2006/05/addressing/wsdl";
constexpr std::string_view wsaw_draft_ns = "http://www.w3.org/2006/02/addressing/wsdl";
constexpr std::string_view wsp15_ns = "http://www.w3.org/ns/ws-policy";
constexpr std::string_view wsp12_ns = "http://schemas.xmlsoap.org/ws/2004/09/policy";
constexpr std::string_view wsu_ns =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

bool is_soap(std::string_view ns) {
  return ns == soap11_ns || ns == soap12_ns;
}

body_use read_use(const detail::node& n) {
  return n.attr("use") == "encoded" ? body_use::encoded : body_use::literal;
}

bool is_true(std::optional<std::string_view> v) {
  return v == "true" || v == "1";
}

/// wsam:Action or wsaw:Action on an input, output or fault ("" when none).
std::string read_action(const detail::node& n) {
  for (std::string_view ns : {wsam_ns, wsam_cr_ns, wsaw_ns, wsaw_draft_ns})
    if (auto a = n.attr(ns, "Action")) return std::string(*a);
  return {};
}

bool is_policy(const detail::node& n, std::string_view local) {
  return n.local == local && (n.ns == wsp15_ns || n.ns == wsp12_ns);
}

/// The wsam:Addressing assertion anywhere in a policy (alternatives included).
addressing_use policy_addressing(const detail::node& policy) {
  for (const detail::node& c : policy.children()) {
    if (c.local == "Addressing" && (c.ns == wsam_ns || c.ns == wsam_cr_ns))
      return is_true(c.attr(wsp15_ns, "Optional")) || is_true(c.attr(wsp12_ns, "Optional"))
                 ? addressing_use::optional
                 : addressing_use::required;
    if (addressing_use u = policy_addressing(c); u != addressing_use::none) return u;
  }
  return addressing_use::none;
}

/// The wsp:Policy a PolicyReference URI="#id" names, searched in the referrer's document.
bool is_policy_named(const detail::node& n, std::string_view id) {
  return is_policy(n, "Policy") &&
         (n.attr(wsu_ns, "Id") == id || n.attr("Id") == id || n.attr("Name") == id);
}

const detail::node* find_policy(const detail::node& from, std::string_view id) {
  const detail::node* root = &from;
  while (root->parent) root = root->parent;
  if (is_policy_named(*root, id)) return root;  // a document that is one policy
  const auto search = [id](const auto& self, const detail::node& n) -> const detail::node* {
    for (const detail::node& c : n.children()) {
      if (is_policy_named(c, id)) return &c;
      if (const detail::node* found = self(self, c)) return found;
    }
    return nullptr;
  };
  return search(search, *root);
}

/// What a binding or port says about WS-Addressing: wsaw:UsingAddressing, or a wsam:Addressing
/// assertion in a wsp:Policy inside it or referenced from it.
addressing_use read_addressing(const detail::node& n) {
  addressing_use use = addressing_use::none;
  for (const detail::node& c : n.children()) {
    addressing_use u = addressing_use::none;
    if (c.local == "UsingAddressing" && (c.ns == wsaw_ns || c.ns == wsaw_draft_ns))
      u = is_true(c.attr(wsdl_ns, "required")) ? addressing_use::required
                                               : addressing_use::optional;
    else if (is_policy(c, "Policy"))
      u = policy_addressing(c);
    else if (is_policy(c, "PolicyReference"))
      if (auto uri = c.attr("URI"); uri && uri->starts_with('#'))
        if (const detail::node* p = find_policy(c, uri->substr(1))) u = policy_addressing(*p);
    use = std::max(use, u);
  }
  return use;
}

// WS-SecurityPolicy 1.2/1.3 and the 2005/07 draft CXF's perf_policy.wsdl uses.
constexpr std::string_view sp12_ns = "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702";
constexpr std::string_view sp_draft_ns = "http://schemas.xmlsoap.org/ws/2005/07/securitypolicy";

bool is_sp(const detail::node& n, std::string_view local) {
  return n.local == local && (n.ns == sp12_ns || n.ns == sp_draft_ns);
}

/// sp: assertions lather::wsse satisfies or that leave it nothing to do: the bindings, tokens
/// and options it implements (asymmetric X.509 signature, UsernameToken, timestamp, signed
/// parts), token reference kinds it reads and writes, algorithm suites (the signing options
/// choose the algorithm), layouts, and the transport binding (HTTPS: the transport's
/// business). Every other sp: assertion is unsupported: SymmetricBinding, encryption,
/// SignedElements, endorsing and signed supporting tokens, issued, SAML, Kerberos and
/// secure-conversation tokens, derived keys, thumbprint references, signature confirmation,
/// WS-Trust.
bool supported_sp(std::string_view local) {
  static constexpr std::string_view known =
      " AsymmetricBinding InitiatorToken RecipientToken InitiatorSignatureToken"
      " RecipientSignatureToken X509Token WssX509V3Token10 WssX509V3Token11 WssX509V1Token10"
      " WssX509V1Token11 RequireIssuerSerialReference RequireKeyIdentifierReference"
      " SupportingTokens UsernameToken HashPassword WssUsernameToken10 WssUsernameToken11"
      " IncludeTimestamp OnlySignEntireHeadersAndBody Wss10 Wss11 MustSupportRefKeyIdentifier"
      " MustSupportRefIssuerSerial AlgorithmSuite Basic256 Basic192 Basic128 TripleDes"
      " Basic256Rsa15 Basic192Rsa15 Basic128Rsa15 TripleDesRsa15 Basic256Sha256 Basic192Sha256"
      " Basic128Sha256 TripleDesSha256 Basic256Sha256Rsa15 Basic192Sha256Rsa15"
      " Basic128Sha256Rsa15 TripleDesSha256Rsa15 Layout Strict Lax LaxTsFirst LaxTsLast"
      " TransportBinding TransportToken HttpsToken RequireClientCertificate SignedParts ";
  for (std::size_t at = known.find(local); !local.empty() && at != std::string_view::npos;
       at = known.find(local, at + 1))
    if (known[at - 1] == ' ' && known[at + local.size()] == ' ') return true;
  return false;
}

bool optional_assertion(const detail::node& n) {
  return is_true(n.attr(wsp15_ns, "Optional")) || is_true(n.attr(wsp12_ns, "Optional"));
}

void add_unsupported(const detail::node& n, std::vector<policy_assertion>* out) {
  if (!out || optional_assertion(n)) return;
  policy_assertion a{{std::string(n.ns), std::string(n.local)}, n.where()};
  if (std::find(out->begin(), out->end(), a) == out->end()) out->push_back(std::move(a));
}

void add_security_assertions(const detail::node& n, security_policy& p,
                             std::vector<policy_assertion>* unsupported);

/// One node of a policy: an sp: assertion, or a wsp: operator (All, ExactlyOne, Policy) whose
/// assertions are read. `unsupported` gets the unsupported assertions (nullptr inside one: only
/// the outermost is named).
void add_security_assertion(const detail::node& c, security_policy& p,
                            std::vector<policy_assertion>* unsupported) {
  const bool sp = c.ns == sp12_ns || c.ns == sp_draft_ns;
  if (sp && !supported_sp(c.local)) {
    add_unsupported(c, unsupported);
    unsupported = nullptr;
  }
  if (is_sp(c, "UsernameToken")) p.username_token = true;
  if (is_sp(c, "HashPassword")) p.hash_password = true;
  if (is_sp(c, "AsymmetricBinding")) p.x509_signature = true;
  if (is_sp(c, "TransportBinding")) p.transport = true;
  if (is_sp(c, "IncludeTimestamp")) p.include_timestamp = true;
  if (is_sp(c, "EncryptedParts") || is_sp(c, "EncryptedElements") || is_sp(c, "EncryptSignature"))
    p.encryption = true;
  if (is_sp(c, "SignedParts")) {
    for (const detail::node& part : c.children()) {
      if (is_sp(part, "Body")) {
        p.sign_body = true;
      } else if (is_sp(part, "Header")) {
        if (auto name = part.attr("Name")) {
          qname h{std::string(part.attr("Namespace").value_or("")), std::string(*name)};
          if (std::find(p.signed_headers.begin(), p.signed_headers.end(), h) ==
              p.signed_headers.end())
            p.signed_headers.push_back(std::move(h));
        } else {
          add_unsupported(part, unsupported);  // every header of a namespace
        }
      } else {
        add_unsupported(part, unsupported);  // sp:Attachments
      }
    }
    return;
  }
  if (is_policy(c, "ExactlyOne") && unsupported) {
    // Satisfiable when one alternative is: its unsupported assertions count only if all have some.
    std::vector<policy_assertion> all;
    bool clean = false;
    for (const detail::node& alternative : c.children()) {
      std::vector<policy_assertion> mine;
      add_security_assertion(alternative, p, &mine);
      clean |= mine.empty();
      all.insert(all.end(), mine.begin(), mine.end());
    }
    if (!clean)
      for (const policy_assertion& a : all)
        if (std::find(unsupported->begin(), unsupported->end(), a) == unsupported->end())
          unsupported->push_back(a);
    return;
  }
  add_security_assertions(c, p, unsupported);
}

/// Every WS-SecurityPolicy assertion under `n` (alternatives and nested policies included).
void add_security_assertions(const detail::node& n, security_policy& p,
                             std::vector<policy_assertion>* unsupported) {
  for (const detail::node& c : n.children()) add_security_assertion(c, p, unsupported);
}

/// The WS-SecurityPolicy attached to a binding, operation or message element: its wsp:Policy
/// children and the policies its wsp:PolicyReference children name (found by `referenced`).
template <class Referenced>
void read_security_policy(const detail::node& n, security_policy& p, Referenced&& referenced) {
  for (const detail::node& c : n.children()) {
    if (is_policy(c, "Policy"))
      add_security_assertions(c, p, &p.unsupported);
    else if (is_policy(c, "PolicyReference"))
      if (auto uri = c.attr("URI"))
        if (const detail::node* policy = referenced(c, *uri))
          add_security_assertions(*policy, p, &p.unsupported);
  }
}

/// The default action pattern of WS-Addressing Metadata 4.4.4:
/// [target namespace][delimiter][portType name][delimiter][message name], ':' as the delimiter
/// for a URN, else '/'.
char delimiter_of(const port_type& pt) {
  return pt.name.ns.starts_with("urn:") ? ':' : '/';
}

std::string default_action(const port_type& pt, std::string_view name) {
  const char delimiter = delimiter_of(pt);
  std::string action = pt.name.ns;
  if (!action.empty() && action.back() != delimiter) action += delimiter;
  action += pt.name.local;
  action += delimiter;
  action += name;
  return action;
}

/// Fill a binding's Actions in force: as written, else (when `addressing`) by default pattern.
/// The input and output names default as in WSDL 1.1 2.4.5.
void fill_actions(binding& b, bool addressing) {
  const port_type& pt = *b.port_type;
  for (binding_operation& bo : b.operations) {
    const operation& op = *bo.op;
    const bool solicit = op.pattern == operation::kind::solicit_response;
    const bool one_way = op.pattern == operation::kind::one_way;
    const bool notification = op.pattern == operation::kind::notification;
    auto pick = [&](const std::string& written, const std::string& message_name,
                    std::string_view suffix) {
      if (!written.empty() || !addressing) return written;
      return default_action(pt,
                            message_name.empty() ? op.name + std::string(suffix) : message_name);
    };
    if (bo.input_action.empty() && op.input)
      bo.input_action = pick(op.input_action, op.input_name,
                             one_way   ? ""
                             : solicit ? "Response"
                                       : "Request");
    if (bo.output_action.empty() && op.output)
      bo.output_action = pick(op.output_action, op.output_name,
                              notification ? ""
                              : solicit    ? "Solicit"
                                           : "Response");
    const char d = delimiter_of(pt);
    for (binding_fault& f : bo.faults) {
      if (!f.action.empty()) continue;
      for (const fault& pf : op.faults)
        if (pf.name == f.name)
          f.action = !pf.action.empty() || !addressing
                         ? pf.action
                         : default_action(pt, op.name + d + "Fault" + d + f.name);
    }
  }
}

}  // namespace

void loader::build_wsdl() {
  for (const detail::wsdl_declaration& d : wsdl_nodes_) {
    const node& n = *d.n;
    if (n.local == "message") {
      const message* m = build_message(n, *d.ctx);
      if (store_.message_index.emplace(m->name, m).second) store_.message_list.push_back(m);
    } else if (n.local == "portType") {
      const port_type* p = build_port_type(n, *d.ctx);
      if (store_.port_type_index.emplace(p->name, p).second) store_.port_type_list.push_back(p);
    } else if (n.local == "binding") {
      const binding* b = build_binding(n, *d.ctx);
      if (store_.binding_index.emplace(b->name, b).second) store_.binding_list.push_back(b);
    } else {
      store_.service_list.push_back(build_service(n, *d.ctx));
    }
  }
}

namespace {
template <class Index>
const detail::wsdl_declaration& find_wsdl(const Index& index, const qname& name,
                                          const detail::node& referrer, const char* what) {
  auto it = index.find(name);
  if (it == index.end())
    throw error(referrer.where(), std::string("unresolved ") + what + " reference " + name.str());
  return it->second;
}
}  // namespace

const message* loader::message_by_name(const qname& name, const node& referrer) {
  const detail::wsdl_declaration& d = find_wsdl(wsdl_index_[0], name, referrer, "message");
  return build_message(*d.n, *d.ctx);
}

const port_type* loader::port_type_by_name(const qname& name, const node& referrer) {
  const detail::wsdl_declaration& d = find_wsdl(wsdl_index_[1], name, referrer, "portType");
  return build_port_type(*d.n, *d.ctx);
}

const binding* loader::binding_by_name(const qname& name, const node& referrer) {
  const detail::wsdl_declaration& d = find_wsdl(wsdl_index_[2], name, referrer, "binding");
  return build_binding(*d.n, *d.ctx);
}

const message* loader::build_message(const node& n, const detail::wsdl_context& ctx) {
  if (auto it = built_messages_.find(&n); it != built_messages_.end()) return it->second;
  message& m = store_.messages.emplace_back();
  built_messages_.emplace(&n, &m);
  m.name = {ctx.tns, std::string(n.attr("name").value_or(""))};
  m.where = n.where();
  for (const node& c : n.children()) {
    if (!c.is(wsdl_ns, "part")) continue;
    part& p = m.parts.emplace_back();
    p.name = c.attr("name").value_or("");
    p.where = c.where();
    if (auto e = c.attr("element"))
      p.element = global_element(resolve_qname(c, *e, nullptr), c);
    else if (auto t = c.attr("type"))
      p.type = type_by_name(resolve_qname(c, *t, nullptr), c);
    else
      throw error(c.where(), "wsdl:part \"" + p.name + "\" has neither element nor type");
  }
  return &m;
}

const port_type* loader::build_port_type(const node& n, const detail::wsdl_context& ctx) {
  if (auto it = built_port_types_.find(&n); it != built_port_types_.end()) return it->second;
  port_type& pt = store_.port_types.emplace_back();
  built_port_types_.emplace(&n, &pt);
  pt.name = {ctx.tns, std::string(n.attr("name").value_or(""))};
  pt.where = n.where();
  for (const node& o : n.children()) {
    if (!o.is(wsdl_ns, "operation")) continue;
    operation& op = pt.operations.emplace_back();
    op.name = o.attr("name").value_or("");
    op.where = o.where();
    if (auto po = o.attr("parameterOrder")) op.parameter_order = detail::split_tokens(*po);
    bool input_first = false, seen_input = false, seen_output = false;
    for (const node& c : o.children()) {
      if (c.ns != wsdl_ns) continue;
      if (c.local == "documentation") {
        op.documentation = c.text;
      } else if (c.local == "input" || c.local == "output") {
        const message* m = message_by_name(attr_qname(c, "message", nullptr), c);
        std::string name(c.attr("name").value_or(""));
        if (c.local == "input") {
          input_first = !seen_output;
          seen_input = true;
          op.input = m;
          op.input_name = std::move(name);
          op.input_action = read_action(c);
        } else {
          seen_output = true;
          op.output = m;
          op.output_name = std::move(name);
          op.output_action = read_action(c);
        }
      } else if (c.local == "fault") {
        op.faults.push_back({std::string(c.attr("name").value_or("")),
                             message_by_name(attr_qname(c, "message", nullptr), c),
                             read_action(c)});
      }
    }
    if (seen_input && seen_output)
      op.pattern =
          input_first ? operation::kind::request_response : operation::kind::solicit_response;
    else if (seen_input)
      op.pattern = operation::kind::one_way;
    else if (seen_output)
      op.pattern = operation::kind::notification;
    else
      throw error(o.where(), "wsdl:operation \"" + op.name + "\" has neither input nor output");
    // parameterOrder is a hint of the RPC signature (WSDL 1.1 2.4.6: "may safely be
    // ignored"): a name that is no part of the input or output message is reported, and the
    // generated structs follow the messages' part order whatever it says.
    for (const std::string& part : op.parameter_order)
      if (!(op.input && op.input->find_part(part)) && !(op.output && op.output->find_part(part)))
        store_.warnings.push_back(o.where().str() + ": parameterOrder names \"" + part +
                                  "\", a part of neither the input nor the output message of "
                                  "operation \"" +
                                  op.name + "\" (ignored)");
  }
  return &pt;
}

void loader::read_binding_message(const node& n, const detail::wsdl_context& ctx,
                                  const message* msg, binding_message& out) {
  for (const node& c : n.children()) {
    if (c.is(mime_ns, "multipartRelated")) {
      out.mime = true;
      for (const node& mp : c.children())
        if (mp.is(mime_ns, "part")) read_binding_message(mp, ctx, msg, out);
      continue;
    }
    if (!is_soap(c.ns)) continue;
    if (c.local == "body") {
      soap_body& b = out.body.emplace();
      b.use = read_use(c);
      b.ns = c.attr("namespace").value_or("");
      b.encoding_style = c.attr("encodingStyle").value_or("");
      if (auto parts = c.attr("parts")) {
        b.parts = detail::split_tokens(*parts);
        for (const std::string& p : *b.parts)
          if (msg && !msg->find_part(p))
            throw error(c.where(), "soap:body parts names \"" + p + "\", not a part of message " +
                                       msg->name.str());
      }
    } else if (c.local == "header") {
      qname msg_name = attr_qname(c, "message", nullptr);
      if (!wsdl_index_[0].count(msg_name)) {
        store_.warnings.push_back(c.where().str() + ": soap:header names the undefined message " +
                                  msg_name.str() + "; header ignored");
        continue;
      }
      soap_header& h = out.headers.emplace_back();
      h.where = c.where();
      h.msg = message_by_name(msg_name, c);
      std::string part_name(c.attr("part").value_or(""));
      h.part = h.msg->find_part(part_name);
      if (!h.part)
        throw error(c.where(), "soap:header part \"" + part_name + "\" is not a part of message " +
                                   h.msg->name.str());
      h.use = read_use(c);
      h.ns = c.attr("namespace").value_or("");
      h.encoding_style = c.attr("encodingStyle").value_or("");
      auto req = c.attr(wsdl_ns, "required");
      h.required = req == "true" || req == "1";
      for (const node& f : c.children()) {
        if (!is_soap(f.ns) || f.local != "headerfault") continue;
        soap_header_fault& hf = h.faults.emplace_back();
        hf.msg = message_by_name(attr_qname(f, "message", nullptr), f);
        std::string fp(f.attr("part").value_or(""));
        hf.part = hf.msg->find_part(fp);
        if (!hf.part)
          throw error(f.where(), "soap:headerfault part \"" + fp + "\" is not a part of message " +
                                     hf.msg->name.str());
        hf.use = read_use(f);
        hf.ns = f.attr("namespace").value_or("");
        hf.encoding_style = f.attr("encodingStyle").value_or("");
      }
    }
  }
}

const detail::node* loader::referenced_policy(const detail::node& ref, std::string_view uri) {
  const std::size_t hash = uri.find('#');
  if (hash == std::string_view::npos || hash + 1 == uri.size()) return nullptr;
  const std::string_view id = uri.substr(hash + 1);
  if (hash == 0) {
    if (const node* p = find_policy(ref, id)) return p;
    // A policy of another document of the contract (a wsdl:import'ed one).
    for (const detail::document& d : store_.documents)
      if (const node* p = find_policy(d.root(), id)) return p;
    return nullptr;
  }
  // "policies.xml#id": a document named as an import's location is (relative, catalogs).
  const std::string_view file = detail::trim(uri.substr(0, hash));
  auto loc = locator_.resolve(file, ref.where().file);
  if (!loc)
    throw error(ref.where(), "no local copy of " + std::string(file) +
                                 " (not in a catalog, not a standard schema; use --catalog)");
  return find_policy(read_document(*loc, ref.where())->root(), id);
}

void loader::warn_unsupported(const binding& b, const security_policy& p) {
  for (const policy_assertion& a : p.unsupported)
    if (warned_assertions_.insert(a.where.str()).second)
      store_.warnings.push_back(a.where.str() + ": WS-SecurityPolicy assertion sp:" + a.name.local +
                                " (policy of binding " + b.name.local +
                                ") is not implemented by lather::wsse, which refuses the policy");
}

const binding* loader::build_binding(const node& n, const detail::wsdl_context& ctx) {
  if (auto it = built_bindings_.find(&n); it != built_bindings_.end()) return it->second;
  binding& b = store_.bindings.emplace_back();
  built_bindings_.emplace(&n, &b);
  b.name = {ctx.tns, std::string(n.attr("name").value_or(""))};
  b.where = n.where();
  b.port_type = port_type_by_name(attr_qname(n, "type", nullptr), n);
  for (const node& c : n.children()) {
    if (is_soap(c.ns) && c.local == "binding") {
      b.version = c.ns == soap11_ns ? soap_version::soap11 : soap_version::soap12;
      b.style = c.attr("style") == "rpc" ? binding_style::rpc : binding_style::document;
      b.transport = c.attr("transport").value_or("");
    }
  }
  b.addressing = read_addressing(n);
  const auto policy = [this](const node& ref, std::string_view uri) {
    return referenced_policy(ref, uri);
  };
  read_security_policy(n, b.security, policy);
  warn_unsupported(b, b.security);
  for (const node& o : n.children()) {
    if (!o.is(wsdl_ns, "operation")) continue;
    binding_operation& bo = b.operations.emplace_back();
    bo.name = o.attr("name").value_or("");
    bo.where = o.where();
    bo.style = b.style;
    // Overloaded operations (same name) are told apart by their input/output names.
    const node* in = nullptr;
    const node* out = nullptr;
    for (const node& c : o.children()) {
      if (c.is(wsdl_ns, "input")) in = &c;
      if (c.is(wsdl_ns, "output")) out = &c;
    }
    std::string_view in_name = in ? in->attr("name").value_or("") : "";
    std::string_view out_name = out ? out->attr("name").value_or("") : "";
    const operation* match = nullptr;
    for (const operation& op : b.port_type->operations) {
      if (op.name != bo.name) continue;
      if (!match) match = &op;
      if ((in_name.empty() || op.input_name == in_name) &&
          (out_name.empty() || op.output_name == out_name)) {
        match = &op;
        break;
      }
    }
    if (!match)
      throw error(o.where(), "binding operation \"" + bo.name + "\" is not in portType " +
                                 b.port_type->name.str());
    bo.op = match;
    bo.security = b.security;
    read_security_policy(o, bo.security, policy);
    if (in) read_security_policy(*in, bo.security, policy);
    warn_unsupported(b, bo.security);
    for (const node& c : o.children()) {
      if (is_soap(c.ns) && c.local == "operation") {
        bo.soap_action = c.attr("soapAction").value_or("");
        if (auto r = c.attr("soapActionRequired"))
          bo.soap_action_required = *r == "true" || *r == "1";
        if (auto s = c.attr("style"))
          bo.style = *s == "rpc" ? binding_style::rpc : binding_style::document;
      } else if (c.is(wsdl_ns, "input")) {
        read_binding_message(c, ctx, match->input, bo.input);
      } else if (c.is(wsdl_ns, "output")) {
        read_binding_message(c, ctx, match->output, bo.output);
      } else if (c.is(wsdl_ns, "fault")) {
        binding_fault& f = bo.faults.emplace_back();
        f.name = c.attr("name").value_or("");
        for (const node& sf : c.children())
          if (is_soap(sf.ns) && sf.local == "fault") {
            f.use = read_use(sf);
            f.ns = sf.attr("namespace").value_or("");
            f.encoding_style = sf.attr("encodingStyle").value_or("");
            if (f.name.empty()) f.name = sf.attr("name").value_or("");
          }
      }
    }
  }
  fill_actions(b, b.addressing != addressing_use::none);
  return &b;
}

const service* loader::build_service(const node& n, const detail::wsdl_context& ctx) {
  service& s = store_.services.emplace_back();
  s.name = {ctx.tns, std::string(n.attr("name").value_or(""))};
  s.where = n.where();
  for (const node& c : n.children()) {
    if (!c.is(wsdl_ns, "port")) continue;
    port& p = s.ports.emplace_back();
    p.name = c.attr("name").value_or("");
    p.where = c.where();
    p.binding = binding_by_name(attr_qname(c, "binding", nullptr), c);
    for (const node& a : c.children())
      if (a.local == "address") p.address = a.attr("location").value_or("");
    p.addressing = std::max(read_addressing(c), p.binding->addressing);
    // Addressing declared on the port gives its binding's operations their default Actions.
    // The binding is this loader's own (built non-const, handed out as const).
    if (p.addressing != addressing_use::none && p.binding->addressing == addressing_use::none)
      fill_actions(const_cast<binding&>(*p.binding), true);
  }
  return &s;
}

}  // namespace lather::wsdl
