#include "lather/soap/fault.hpp"

#include "detail.hpp"
#include "lather/bind/error.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {
namespace {

/// A custom code: one outside the SOAP envelope namespaces (kept as sent, see fault.hpp).
bool is_custom_code(const qname& code) {
  return !code.local.empty() && !version_from_namespace(code.ns);
}

/// "SOAP fault <code>: <reason>", the code as it was received (soap:Client stays Client, a
/// custom code is named with its namespace); a fault built here names its code as 1.2 does.
std::string describe_fault(const fault& f) {
  std::string out = "SOAP fault ";
  const qname& sent = f.received_code;
  if (sent.local.empty()) {
    out += fault_code_name(f.code, version::soap12);
  } else {
    if (is_custom_code(sent) && !sent.ns.empty()) {
      out += '{';
      out += sent.ns;
      out += '}';
    }
    out += sent.local;
  }
  // A dotted 1.1 code ("Client.Validation") already names its subcodes.
  if (sent.local.find('.') == std::string::npos) {
    for (const qname& s : f.subcodes) {
      out += '/';
      out += s.local;
    }
  }
  out += ": ";
  out += f.reason;
  return out;
}

struct code_split {
  fault_code code = fault_code::receiver;
  bool known = false;
};

/// "Client", "Server.Busy", "Sender", ... -> code; dotted 1.1 suffixes become subcodes.
code_split classify(std::string_view local, std::string_view ns, std::vector<qname>& subcodes) {
  const std::size_t dot = local.find('.');
  const std::string_view base = local.substr(0, dot);
  code_split out;
  out.known = true;
  if (base == "Client" || base == "Sender") {
    out.code = fault_code::sender;
  } else if (base == "Server" || base == "Receiver") {
    out.code = fault_code::receiver;
  } else if (base == "VersionMismatch") {
    out.code = fault_code::version_mismatch;
  } else if (base == "MustUnderstand") {
    out.code = fault_code::must_understand;
  } else if (base == "DataEncodingUnknown") {
    out.code = fault_code::data_encoding_unknown;
  } else {
    out.known = false;
  }
  if (out.known && dot != std::string_view::npos) {
    std::string_view rest = local.substr(dot + 1);
    while (!rest.empty()) {
      const std::size_t d = rest.find('.');
      subcodes.push_back({std::string{ns}, std::string{rest.substr(0, d)}, {}});
      if (d == std::string_view::npos) break;
      rest.remove_prefix(d + 1);
    }
  }
  return out;
}

/// Resolve QName text against the reader's scope; an undeclared prefix (node-soap's
/// "SOAP-ENV:Server" without a declaration) falls back to `fallback_ns`.
qname resolve_qname(const xml::reader& r, std::string_view text, std::string_view fallback_ns) {
  while (!text.empty() && detail::is_whitespace(text.substr(0, 1))) text.remove_prefix(1);
  while (!text.empty() && detail::is_whitespace(text.substr(text.size() - 1)))
    text.remove_suffix(1);
  const std::size_t colon = text.find(':');
  qname q;
  const std::string_view prefix = colon == std::string_view::npos ? "" : text.substr(0, colon);
  q.local = std::string{colon == std::string_view::npos ? text : text.substr(colon + 1)};
  q.prefix = std::string{prefix};
  const auto ns = r.lookup_namespace(prefix);
  q.ns = std::string{ns ? *ns : fallback_ns};
  return q;
}

void write_qname_text(xml::writer& w, std::string_view ns, std::string_view local,
                      std::string& scratch) {
  scratch.clear();
  const std::string_view prefix = ns.empty() ? std::string_view{} : w.prefix_for(ns);
  if (!prefix.empty()) {
    scratch += prefix;
    scratch += ':';
  }
  scratch += local;
  w.text(scratch);
}

class fault_parser {
 public:
  fault_parser(xml::reader& r, version v, std::span<const namespace_binding> in_scope)
      : r_(r), v_(v) {
    for (const namespace_binding& b : in_scope) scope_bindings_.push_back(b);
  }

  fault parse() {
    push_scope();  // Fault's own declarations
    while (next_child()) {
      const std::string_view name = r_.local_name();
      if (name == "faultcode") {
        detail::read_text(r_, text_, "faultcode");
        set_code(resolve_qname(r_, text_, envelope_ns(v_)));
      } else if (name == "faultstring") {
        detail::read_text(r_, text_, "faultstring");
        f_.reason = text_;
      } else if (name == "faultactor" || name == "Node") {
        detail::read_text(r_, text_, "faultactor");
        f_.node = text_;
      } else if (name == "Role") {
        detail::read_text(r_, text_, "Role");
        f_.role = text_;
      } else if (name == "detail" || name == "Detail") {
        read_detail();
      } else if (name == "Code") {
        read_code();
      } else if (name == "Reason") {
        read_reason();
      } else {
        detail::skip(r_);
      }
    }
    if (!have_code_) detail::fail(errc::bad_fault, "Fault without faultcode or Code");
    return std::move(f_);
  }

 private:
  bool next_child() {
    for (;;) {
      switch (detail::next(r_)) {
        case xml::token::start_element:
          return true;
        case xml::token::end_element:
          return false;
        default:
          break;  // text (whitespace or stray) between fault children is ignored
      }
    }
  }

  void push_scope() {
    for (const xml::namespace_declaration& d : r_.namespace_declarations()) {
      scope_bindings_.push_back({std::string{d.prefix}, std::string{d.uri}});
    }
  }

  void set_code(qname q) {
    if (!have_code_) {
      const code_split c = classify(q.local, q.ns, f_.subcodes);
      f_.code = c.known ? c.code : fault_code::receiver;
      f_.received_code = std::move(q);
      have_code_ = true;
    } else {
      f_.subcodes.push_back(std::move(q));
    }
  }

  // Code/Value, then Subcode/Value nested to any depth (iteratively).
  void read_code() {
    std::size_t open = 1;  // Code or Subcode elements still open
    while (open > 0) {
      if (!next_child()) {
        --open;
        continue;
      }
      const std::string_view name = r_.local_name();
      if (name == "Value") {
        detail::read_text(r_, text_, "fault code Value");
        set_code(resolve_qname(r_, text_, envelope_ns(v_)));
      } else if (name == "Subcode") {
        ++open;
      } else {
        detail::skip(r_);
      }
    }
  }

  void read_reason() {
    bool first = true;
    while (next_child()) {
      if (first && r_.local_name() == "Text") {
        if (const xml::attribute* lang = r_.find_attribute(xml_ns, "lang")) {
          f_.reason_lang = std::string{lang->value};
        }
        detail::read_text(r_, text_, "Reason Text");
        f_.reason = text_;
        first = false;
      } else {
        detail::skip(r_);
      }
    }
  }

  void read_detail() {
    f_.has_detail = true;
    if (const xml::attribute* nil = r_.find_attribute(xsi_ns, "nil");
        nil && (nil->value == "true" || nil->value == "1")) {
      return detail::skip(r_);
    }
    const std::size_t mark = scope_bindings_.size();
    push_scope();
    while (next_child()) f_.detail_xml += capture_element(r_, scope_bindings_);
    scope_bindings_.resize(mark);
  }

  xml::reader& r_;
  version v_;
  fault f_;
  bool have_code_ = false;
  std::string text_;
  std::vector<namespace_binding> scope_bindings_;
};

}  // namespace

std::string_view fault_code_name(fault_code c, version v) noexcept {
  const bool v11 = v == version::soap11;
  switch (c) {
    case fault_code::version_mismatch:
      return "VersionMismatch";
    case fault_code::must_understand:
      return "MustUnderstand";
    case fault_code::data_encoding_unknown:
      return v11 ? "Client" : "DataEncodingUnknown";
    case fault_code::sender:
      return v11 ? "Client" : "Sender";
    case fault_code::receiver:
      return v11 ? "Server" : "Receiver";
  }
  return v11 ? "Server" : "Receiver";
}

namespace {

/// The elements `write_children` writes, as XML text, into `text`.
void render_children(const std::function<void(xml::writer&)>& write_children, std::string& text) {
  // A wrapper element lets the callback write several children (a writer wants one root).
  xml::output out;
  xml::writer w{out};
  w.start_element({}, "d");
  write_children(w);
  w.end_document();
  const std::string_view all = out.view();
  const std::size_t open = all.find('>');
  const std::size_t close = all.rfind("</");
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    text.assign(all.substr(open + 1, close - open - 1));
  } else {
    text.clear();  // <d/>: the callback wrote nothing
  }
}

/// Calls `read_child` with a reader on the start tag of each element of `text`.
void read_children(std::string_view text, const std::function<void(xml::reader&)>& read_child) {
  std::string doc = "<d>";
  doc += text;
  doc += "</d>";
  xml::reader r;
  r.reset(doc);
  detail::next(r);  // <d>
  // Each child is read through its end tag by the callback, so the next token is either the
  // next child's start tag or </d>.
  for (xml::token t = detail::next(r); t != xml::token::end_element; t = detail::next(r)) {
    if (t == xml::token::start_element) read_child(r);
  }
}

}  // namespace

void fault::set_detail(const std::function<void(xml::writer&)>& write_children) {
  render_children(write_children, detail_xml);
  has_detail = true;
}

bool fault::read_detail(const std::function<void(xml::reader&)>& read_child) const {
  if (!has_detail) return false;
  read_children(detail_xml, read_child);
  return true;
}

void fault::set_header(const std::function<void(xml::writer&)>& write_entries) {
  render_children(write_entries, header_xml);
}

bool fault::read_header(const std::function<void(xml::reader&)>& read_entry) const {
  if (header_xml.empty()) return false;
  read_children(header_xml, read_entry);
  return true;
}

fault_error::fault_error(fault f, std::error_code ec)
    : std::runtime_error(describe_fault(f)), fault_(std::move(f)), ec_(ec) {}

fault_code fault_code_for(const std::error_code& ec) noexcept {
  if (ec.category() == soap::category()) {
    switch (static_cast<errc>(ec.value())) {
      case errc::version_mismatch:
        return fault_code::version_mismatch;
      case errc::must_understand:
        return fault_code::must_understand;
      case errc::data_encoding_unknown:
        return fault_code::data_encoding_unknown;
      default:
        return fault_code::sender;
    }
  }
  if (ec.category() == xml::category() || ec.category() == bind::category()) {
    return fault_code::sender;
  }
  return fault_code::receiver;
}

fault make_fault(const std::error_code& ec, std::string reason) {
  fault f;
  f.code = fault_code_for(ec);
  f.reason = std::move(reason);
  return f;
}

void throw_fault(const std::error_code& ec, std::string reason) {
  throw fault_error{make_fault(ec, std::move(reason)), ec};
}

fault fault_from_exception(std::exception_ptr e, bool hide_internal_messages) {
  try {
    std::rethrow_exception(e);
  } catch (const fault_error& err) {
    return err.get();
  } catch (const xml::error& err) {
    return make_fault(xml::make_error_code(err.code()), err.what());
  } catch (const bind::error& err) {
    return make_fault(bind::make_error_code(err.code()), err.what());
  } catch (const std::exception& err) {
    fault f;
    f.code = fault_code::receiver;
    f.reason = hide_internal_messages ? "Internal server error" : err.what();
    return f;
  } catch (...) {
    fault f;
    f.code = fault_code::receiver;
    f.reason = "Internal server error";
    return f;
  }
}

void write_fault(xml::writer& w, version v, const fault& f) {
  const std::string_view env = envelope_ns(v);
  std::string scratch;
  w.start_element(env, "Fault");
  if (v == version::soap11) {
    w.start_element({}, "faultcode");
    if (is_custom_code(f.received_code)) {
      // A custom code received (a gateway passing a fault on) goes out as it came in.
      write_qname_text(w, f.received_code.ns, f.received_code.local, scratch);
    } else {
      scratch = w.prefix_for(env);
      if (!scratch.empty()) scratch += ':';
      scratch += fault_code_name(f.code, v);
      for (const qname& s : f.subcodes) {
        scratch += '.';
        scratch += s.local;
      }
      w.text(scratch);
    }
    w.end_element();
    w.start_element({}, "faultstring");
    w.text(f.reason);
    w.end_element();
    if (!f.node.empty()) {
      w.start_element({}, "faultactor");
      w.text(f.node);
      w.end_element();
    }
    if (f.has_detail || !f.detail_xml.empty()) {
      w.start_element({}, "detail");
      w.raw(f.detail_xml);
      w.end_element();
    }
  } else {
    w.start_element(env, "Code");
    w.start_element(env, "Value");
    write_qname_text(w, env, fault_code_name(f.code, v), scratch);
    w.end_element();
    for (const qname& s : f.subcodes) {
      w.start_element(env, "Subcode");
      w.start_element(env, "Value");
      write_qname_text(w, s.ns, s.local, scratch);
      w.end_element();
    }
    for (std::size_t i = 0; i < f.subcodes.size(); ++i) w.end_element();
    w.end_element();  // Code
    w.start_element(env, "Reason");
    w.start_element(env, "Text");
    w.attribute(xml_ns, "lang", f.reason_lang.empty() ? std::string_view{"en"} : f.reason_lang);
    w.text(f.reason);
    w.end_element();
    w.end_element();
    if (!f.node.empty()) {
      w.start_element(env, "Node");
      w.text(f.node);
      w.end_element();
    }
    if (!f.role.empty()) {
      w.start_element(env, "Role");
      w.text(f.role);
      w.end_element();
    }
    if (f.has_detail || !f.detail_xml.empty()) {
      w.start_element(env, "Detail");
      w.raw(f.detail_xml);
      w.end_element();
    }
  }
  w.end_element();  // Fault
}

void write_fault_envelope(xml::writer& w, version v, const fault& f, bool xml_declaration,
                          const std::function<void(xml::writer&)>& write_headers) {
  envelope_writer out{w, v};
  envelope_write_options options;
  options.xml_declaration = xml_declaration;
  out.begin(options);
  const std::string_view env = envelope_ns(v);
  std::string scratch;
  auto qname_attribute = [&](std::string_view ns, std::string_view local) {
    scratch.clear();
    const std::string_view prefix = w.prefix_for(ns);
    if (!prefix.empty()) {
      scratch += prefix;
      scratch += ':';
    }
    scratch += local;
    w.attribute({}, "qname", scratch);
  };
  bool header = false;
  auto begin_header = [&] {
    if (!header) out.begin_header();
    header = true;
  };
  if (v == version::soap12 && f.code == fault_code::must_understand && !f.not_understood.empty()) {
    begin_header();
    for (const qname& q : f.not_understood) {
      w.start_element(env, "NotUnderstood");
      qname_attribute(q.ns, q.local);
      w.end_element();
    }
  } else if (v == version::soap12 && f.code == fault_code::version_mismatch) {
    begin_header();
    w.start_element(env, "Upgrade");
    for (std::string_view ns : {soap12_envelope_ns, soap11_envelope_ns}) {
      w.start_element(env, "SupportedEnvelope");
      qname_attribute(ns, "Envelope");
      w.end_element();
    }
    w.end_element();
  }
  if (write_headers) {
    begin_header();
    write_headers(w);
  }
  if (!f.header_xml.empty()) {
    begin_header();
    w.raw(f.header_xml);
  }
  out.begin_body();
  write_fault(w, v, f);
  out.end();
}

fault read_fault(xml::reader& r, version v, std::span<const namespace_binding> in_scope) {
  return fault_parser{r, v, in_scope}.parse();
}

std::optional<fault> read_fault_document(std::string_view document) {
  xml::reader r;
  r.reset(document);
  // A client reading a fault does not refuse it over headers it does not know. The entries
  // that are not mustUnderstand become the fault's header_xml, as a client's call gives them
  // (where a soap:headerfault's entry travels: SOAP 1.1 section 4.4, the fault's Header).
  envelope_options options;
  options.on_header = [](const header_info& h, xml::reader&) {
    return h.must_understand ? header_use::understood : header_use::not_understood;
  };
  options.keep_unread = true;
  envelope_reader env{r, std::move(options)};
  env.begin();
  if (!env.at_fault()) return std::nullopt;
  fault f = read_fault(r, env.ver(), env.body_namespaces());
  f.header_xml = env.unread_headers();
  return f;
}

}  // namespace lather::soap
