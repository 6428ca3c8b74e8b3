#include "codec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>

#include "codec_value.hpp"
#include "lather/soap/capture.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/style.hpp"
#include "lather/wsdl/sample.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "simple.hpp"

namespace lather::dynamic::detail {

using namespace lather::wsdl;

namespace {

constexpr std::size_t max_sample_depth = 12;

// ------------------------------------------------------------------------------ samples

value sample_of(const type_model& tm, const type& declared, std::size_t depth);

value typed_fixed(const element_decl& e) {
  if (e.type->kind == type_kind::simple)
    return typed(static_cast<const simple_type&>(*e.type), *e.fixed_value);
  return *e.fixed_value;
}

value sample_any(const type_model& tm, const wildcard& w, std::size_t depth) {
  std::string_view ns = w.namespaces;
  if (ns == "##any" || ns == "##other")
    ns = "urn:lather:sample";
  else if (ns == "##local")
    ns = "";
  else if (ns.find(' ') != ns.npos)
    ns = ns.substr(0, ns.find(' '));
  if (ns == "##targetNamespace") return nullptr;
  if (w.process_contents == wildcard::process::strict) {
    const element_decl* e = tm.element_in(ns);
    if (!e || depth > max_sample_depth) return nullptr;
    xml::output out;
    xml::writer w2{out};
    value_writer vw{tm, w2, false};
    vw.element(*e, sample_of(tm, *e->type, depth + 1), "");
    w2.end_document();
    return std::string(out.view());
  }
  return "<sample xmlns=\"" + std::string(ns) + "\">string</sample>";
}

value sample_of(const type_model& tm, const type& declared, std::size_t depth) {
  const type* t = tm.concrete(declared);
  if (!t) t = &declared;
  if (t->kind == type_kind::simple) {
    const auto& st = static_cast<const simple_type&>(*t);
    return typed(st, sample_value(st));
  }
  const auto& ct = static_cast<const complex_type&>(*t);
  if (ct.builtin) return "string";
  if (ct.array) {
    value items = dynamic::array{};
    if (ct.array->item && depth < max_sample_depth)
      items.push_back(sample_of(tm, *ct.array->item, depth + 1));
    if (rank_of(*ct.array) == 2) {  // one row of one item
      value rows = dynamic::array{};
      rows.push_back(std::move(items));
      return rows;
    }
    return items;
  }
  value v = dynamic::object{};
  if (t != &declared) v[type_key] = t->name.local;
  if (depth > max_sample_depth) return v;
  for (const field& x : tm.flat(ct).fields) {
    if (!x.sample) continue;
    value item;
    switch (x.what) {
      case field::kind::attribute:
        item = x.attribute->fixed_value ? value(*x.attribute->fixed_value)
               : x.attribute->decl->fixed_value
                   ? value(*x.attribute->decl->fixed_value)
                   : sample_of(tm, *x.attribute->decl->type, depth + 1);
        break;
      case field::kind::text:
        item = x.text ? typed(*x.text, sample_value(*x.text, *x.text_facets)) : value("string");
        break;
      case field::kind::any:
        item = sample_any(tm, *x.any, depth);
        if (item.is_null()) continue;
        break;
      case field::kind::element:
        item = x.element->fixed_value ? typed_fixed(*x.element)
                                      : sample_of(tm, *x.element->type, depth + 1);
        break;
    }
    if (x.repeated && x.what == field::kind::element) {
      value one = dynamic::array{};
      one.push_back(std::move(item));
      item = std::move(one);
    }
    v[x.key] = std::move(item);
  }
  return v;
}

}  // namespace

// ------------------------------------------------------------------------------ messages

message_shape shape_of(const operation_info& op, bool output) {
  message_shape m;
  const binding_operation& bo = *op.op;
  m.msg = output ? bo.op->output : bo.op->input;
  const binding_message& bm = output ? bo.output : bo.input;
  m.rpc = op.rpc;
  m.encoded = bm.body && bm.body->use == body_use::encoded;
  m.rpc_ns = bm.body ? bm.body->ns : std::string();
  m.rpc_name = output ? soap::response_name(op.name) : op.name;
  for (const soap_header& h : bm.headers)
    if (h.part) m.headers.push_back(&h);
  if (!m.msg) return m;
  if (bm.body && bm.body->parts) {
    for (const std::string& name : *bm.body->parts)
      if (const part* p = m.msg->find_part(name)) m.body.push_back(p);
    return m;
  }
  for (const part& p : m.msg->parts) {
    const bool in_header =
        std::any_of(m.headers.begin(), m.headers.end(),
                    [&](const soap_header* h) { return h->msg == m.msg && h->part == &p; });
    if (!in_header) m.body.push_back(&p);
  }
  return m;
}

namespace {

const type& part_type(const part& p) {
  return p.element ? *p.element->type : *p.type;
}

std::string member_label(std::string_view key, bool optional, const type& t, bool repeated) {
  return std::string(key) + (optional ? "?" : "") + ": " + type_label(t) + (repeated ? "[]" : "");
}

std::string fields_signature(const type_model& tm, const type& t) {
  if (t.kind != type_kind::complex || t.builtin) return {};
  std::string out;
  for (const field& x : tm.flat(static_cast<const complex_type&>(t)).fields) {
    std::string one;
    if (x.what == field::kind::element)
      one = member_label(x.key, !x.required, *x.element->type, x.repeated);
    else if (x.what == field::kind::attribute)
      one = member_label(x.key, !x.required, *x.attribute->decl->type, false);
    else if (x.what == field::kind::any)
      one = std::string(any_key) + "?: xml[]";
    else
      one = std::string(text_key) + ": " + (x.text ? type_label(*x.text) : "xsd:string");
    out += (out.empty() ? "" : ", ") + one;
  }
  return out;
}

}  // namespace

std::string signature(const type_model& tm, const message_shape& m) {
  std::string out;
  if (m.single() && m.body.front()->element)
    out = fields_signature(tm, *m.body.front()->element->type);
  if (out.empty() && !(m.single() && m.body.front()->element &&
                       m.body.front()->element->type->kind == type_kind::complex)) {
    for (const part* p : m.body)
      out += (out.empty() ? "" : ", ") + member_label(p->name, false, part_type(*p), false);
  }
  std::string headers;
  for (const soap_header* h : m.headers)
    headers += (headers.empty() ? "" : ", ") +
               member_label(h->part->name, !h->required, part_type(*h->part), false);
  if (!headers.empty())
    out += (out.empty() ? "" : ", ") + std::string("_soapheaders={") + headers + "}";
  return out;
}

namespace {

// value_error for the first member of `object` not named in `names`.
void reject_unknown_members(const value& object, const std::vector<std::string_view>& names,
                            const std::string& path, const std::string& why) {
  if (!object.is_object()) return;
  for (const member& m : object.members())
    if (std::find(names.begin(), names.end(), m.first) == names.end())
      throw value_error(path + "/" + m.first + ": " + why);
}

}  // namespace

std::string write_message(const type_model& tm, const operation_info& op, bool output,
                          const value& body, const value& headers, soap::version v,
                          const std::function<void(xml::writer&)>& more_headers) {
  const message_shape m = shape_of(op, output);
  // One output and writer per thread, reused: a call allocates no buffers once warm.
  thread_local xml::output out;
  thread_local xml::writer w{out};
  out.clear();
  w.reset();
  soap::envelope_writer env{w, v};
  soap::envelope_write_options eo;
  eo.encoded = m.encoded;
  env.begin(eo);
  value_writer vw{tm, w, m.encoded};
  if (!headers.is_null()) {
    if (!headers.is_object()) throw value_error("headers: expected an object of header parts");
    std::vector<std::string_view> names;
    for (const soap_header* h : m.headers) names.push_back(h->part->name);
    reject_unknown_members(headers, names, "headers", "not a header part of " + op.name);
  }
  bool header_open = false;
  for (const soap_header* h : m.headers) {
    const value* item = headers.find(h->part->name);
    if (!item) {
      if (h->required) throw value_error("headers/" + h->part->name + ": missing (required)");
      continue;
    }
    if (!header_open) env.begin_header(), header_open = true;
    const bool encoded = h->use == body_use::encoded;
    value_writer hw{tm, w, encoded};
    if (h->part->element)
      hw.element(*h->part->element, *item, "headers/" + h->part->name);
    else
      hw.accessor(h->ns, h->part->name, *h->part->type, *item, "headers/" + h->part->name, true);
  }
  if (more_headers) {
    if (!header_open) env.begin_header();
    more_headers(w);
  }
  env.begin_body();
  auto write_part = [&](const part& p, const value& item, const std::string& path) {
    if (p.element)
      vw.element(*p.element, item, path);
    else
      vw.accessor("", p.name, *p.type, item, path, m.encoded);
  };
  if (m.rpc) {
    soap::write_rpc_start(w, v, m.encoded ? soap::style::rpc_encoded : soap::style::rpc_literal,
                          m.rpc_ns, m.rpc_name);
    const std::string path = "/" + m.rpc_name;
    if (!body.is_null() && !body.is_object())
      throw value_error(path + ": expected an object of the parts, got " +
                        std::string(body.type_name()));
    std::vector<std::string_view> names;
    for (const part* p : m.body) names.push_back(p->name);
    reject_unknown_members(body, names, path, "not a part of " + m.rpc_name);
    for (const part* p : m.body) {
      const value* item = body.find(p->name);
      if (!item)
        throw value_error(path + "/" + p->name + ": missing (" + type_label(part_type(*p)) + ")");
      write_part(*p, *item, path + "/" + p->name);
    }
    w.end_element();
  } else if (m.single()) {
    const part& p = *m.body.front();
    write_part(p, body, "/" + (p.element ? p.element->name.local : p.name));
  } else {
    for (const part* p : m.body) {
      const value* item = body.find(p->name);
      if (!item) throw value_error("/" + p->name + ": missing (" + type_label(part_type(*p)) + ")");
      write_part(*p, *item, "/" + p->name);
    }
  }
  env.end();
  return std::string(out.view());
}

namespace {

value read_detail(const type_model& tm, const operation_info& op, const soap::fault& f,
                  std::vector<std::string>& problems) {
  value detail;
  f.read_detail([&](xml::reader& r) {
    for (const wsdl::fault& decl : op.op->op->faults)
      if (decl.msg)
        for (const part& p : decl.msg->parts)
          if (p.element && r.is(p.element->name.ns, p.element->name.local)) {
            value_reader vr{tm, r, problems};
            detail[p.element->name.local] = vr.element(
                *p.element->type, "/Fault/detail/" + p.element->name.local, p.element->nillable);
            return;
          }
    detail[any_key].push_back(soap::capture_element(r, {}));
  });
  return detail;
}

}  // namespace

call_result read_message(const type_model& tm, const operation_info& op, bool output,
                         std::string_view envelope) {
  const message_shape m = shape_of(op, output);
  call_result result;
  result.envelope = std::string(envelope);
  thread_local xml::reader r;  // reused: its buffers stay allocated
  r.reset(result.envelope);
  soap::envelope_options eo;
  eo.on_header = [&](const soap::header_info& h, xml::reader& hr) {
    for (const soap_header* sh : m.headers) {
      const part& p = *sh->part;
      if (p.element ? h.is(p.element->name.ns, p.element->name.local) : h.local == p.name) {
        value_reader vr{tm, hr, result.problems};
        result.headers[p.name] =
            vr.element(part_type(p), "/Envelope/Header/" + std::string(h.local),
                       p.element && p.element->nillable);
        return soap::header_use::consumed;
      }
    }
    std::string& skipped = result.skipped_headers.emplace_back("{");  // (one append each: GCC
    skipped.append(h.ns).append("}").append(h.local);                 // 12 warns on operator+)
    return soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(eo)};
  env.begin();
  if (env.at_body_element() && env.at_fault()) {
    soap::fault f = soap::read_fault(r, env.ver(), env.body_namespaces());
    value detail = read_detail(tm, op, f, result.problems);
    throw fault_error(std::move(f), std::move(detail));
  }
  std::optional<references> refs;
  if (m.encoded) {
    refs.emplace(result.envelope);
    for (const std::string& id : refs->duplicates())
      result.problems.push_back("/Envelope: id \"" + id + "\" is on more than one element");
  }
  value_reader vr{tm, r, result.problems, env.body_namespaces(), refs ? &*refs : nullptr};
  const std::string body_path = "/Envelope/Body";
  if (!env.at_body_element()) {
    if (!m.body.empty() || m.rpc)
      vr.problem(body_path, "empty, expected " + (m.rpc ? m.rpc_name : m.body.front()->name));
    env.finish();
    return result;
  }
  if (m.rpc) {
    const std::string path = body_path + "/" + std::string(r.local_name());
    if ((!m.rpc_ns.empty() && r.ns() != m.rpc_ns) ||
        (r.local_name() != m.rpc_name && !(m.encoded && output)))
      vr.problem(path, "expected the wrapper {" + m.rpc_ns + "}" + m.rpc_name);
    result.body = dynamic::object{};
    soap::rpc_reader parts{r};
    while (parts.next()) {
      const std::string name(parts.name());
      auto it = std::find_if(m.body.begin(), m.body.end(),
                             [&](const part* p) { return p->name == name; });
      if (it == m.body.end()) {
        vr.problem(path + "/" + name, "not a part of " + m.rpc_name);
        r.skip_element();
        continue;
      }
      result.body[name] = vr.element(part_type(**it), path + "/" + name, true);
    }
    for (const part* p : m.body)
      if (!result.body.find(p->name)) vr.problem(path + "/" + p->name, "missing");
    while (env.next_body_element()) r.skip_element();  // multi-ref values after the wrapper
  } else {
    bool more = true;
    std::size_t seen = 0;
    while (more) {
      const std::string name(r.local_name());
      auto it = std::find_if(m.body.begin(), m.body.end(), [&](const part* p) {
        return p->element ? r.is(p->element->name.ns, p->element->name.local) : name == p->name;
      });
      if (it == m.body.end()) {
        vr.problem(body_path + "/" + name, "not a body part of " + op.name);
        more = env.skip_body_element();
        continue;
      }
      ++seen;
      value item = vr.element(part_type(**it), body_path + "/" + name,
                              (*it)->element && (*it)->element->nillable);
      if (m.single())
        result.body = std::move(item);
      else
        result.body[(*it)->name] = std::move(item);
      more = env.next_body_element();
    }
    if (seen < m.body.size())
      for (const part* p : m.body)
        if (!m.single() && !result.body.find(p->name))
          vr.problem(body_path + "/" + p->name, "missing");
  }
  env.finish();
  return result;
}

wsdl::qname body_element(std::string_view envelope) {
  xml::reader r;
  r.reset(envelope);
  soap::envelope_options eo;
  eo.on_header = [](const soap::header_info&, xml::reader&) {
    return soap::header_use::understood;
  };
  soap::envelope_reader env{r, std::move(eo)};
  env.begin();
  if (!env.at_body_element()) return {};
  return {std::string(r.ns()), std::string(r.local_name())};
}

value sample_body(const type_model& tm, const message_shape& m) {
  if (m.single()) return sample_of(tm, part_type(*m.body.front()), 0);
  value v = dynamic::object{};
  for (const part* p : m.body) v[p->name] = sample_of(tm, part_type(*p), 0);
  return v;
}

value sample_headers(const type_model& tm, const message_shape& m) {
  value v;
  for (const soap_header* h : m.headers)
    if (h->required) v[h->part->name] = sample_of(tm, part_type(*h->part), 0);
  return v;
}

}  // namespace lather::dynamic::detail
