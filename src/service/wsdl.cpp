// WSDL 1.1 generation: one xsd:schema per namespace (local elements carry an explicit form, so
// the schema defaults never matter), messages, one portType, a SOAP 1.1 and/or 1.2 binding and
// a service whose ports point at the address the WSDL was fetched from.
#include "lather/service/wsdl.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "lather/bind/describe.hpp"
#include "lather/bind/facets.hpp"
#include "lather/service/service.hpp"
#include "lather/xml/writer.hpp"

namespace lather {
namespace {

constexpr std::string_view wsdl_ns = "http://schemas.xmlsoap.org/wsdl/";
constexpr std::string_view soap11_binding_ns = "http://schemas.xmlsoap.org/wsdl/soap/";
constexpr std::string_view soap12_binding_ns = "http://schemas.xmlsoap.org/wsdl/soap12/";
constexpr std::string_view http_transport = "http://schemas.xmlsoap.org/soap/http";
constexpr std::string_view xs = "http://www.w3.org/2001/XMLSchema";

std::string occurs(std::uint32_t n) {
  return n == bind::unbounded ? "unbounded" : std::to_string(n);
}

class wsdl_writer {
 public:
  wsdl_writer(const service& s, const wsdl_builder& b) : s_(s), b_(b), w_(out_) {}

  std::string write(std::string_view address) {
    collect_namespaces();
    name_messages();
    w_.xml_declaration();
    w_.declare_namespace("wsdl", wsdl_ns);
    w_.declare_namespace("soap", soap11_binding_ns);
    w_.declare_namespace("soap12", soap12_binding_ns);
    w_.declare_namespace("xsd", xs);
    w_.declare_namespace("tns", s_.target_namespace());
    for (const auto& [ns, prefix] : prefixes_)
      if (ns != s_.target_namespace()) w_.declare_namespace(prefix, ns);
    w_.start_element(wsdl_ns, "definitions");
    w_.attribute("", "name", s_.name());
    w_.attribute("", "targetNamespace", s_.target_namespace());
    write_types();
    write_messages();
    write_port_type();
    if (s_.options().soap11) write_binding(false);
    if (s_.options().soap12) write_binding(true);
    write_service(address);
    w_.end_document();
    return out_.take();
  }

 private:
  std::string qname(const xsd_ref& r) {
    if (r.ns == xs) return "xsd:" + r.name;
    return prefix_of(r.ns) + ":" + r.name;
  }
  std::string prefix_of(const std::string& ns) {
    if (ns == s_.target_namespace()) return "tns";
    return prefixes_.at(ns);
  }
  void note_ns(const std::string& ns) {
    if (ns.empty() || ns == xs || ns == s_.target_namespace() || prefixes_.count(ns)) return;
    prefixes_.emplace(ns, "ns" + std::to_string(prefixes_.size() + 1));
  }
  void note_fields(const std::vector<xsd_field>& fields) {
    for (const auto& f : fields) {
      note_ns(f.ns);
      note_ns(f.type.ns);
      for (const auto& a : f.alternatives) {
        note_ns(a.type.ns);
        note_fields(a.group);
      }
      note_fields(f.particles);
    }
  }
  void collect_namespaces() {
    for (const auto& [key, t] : b_.types()) {
      schema_namespaces_.insert(t.id.ns);
      note_ns(t.id.ns);
      note_fields(t.fields);
      if (t.base) note_ns(t.base->ns);
    }
    for (const auto& e : b_.elements()) {
      schema_namespaces_.insert(e.ns);
      note_ns(e.ns);
      if (e.type) note_ns(e.type->ns);
      note_fields(e.anonymous);
    }
    for (const auto& op : b_.operations()) {
      note_ns(op.element_ns);
      if (!op.response_ns.empty()) note_ns(op.response_ns);
      note_fields(op.request_parts);
      note_fields(op.response_parts);
    }
  }

  // Namespaces a schema refers to (other than its own and XSD): they need xsd:import.
  void imports_of(const std::vector<xsd_field>& fields, std::set<std::string>& out) {
    for (const auto& f : fields) {
      if (!f.type.ns.empty() && f.type.ns != xs) out.insert(f.type.ns);
      for (const auto& a : f.alternatives) {
        if (a.group.empty() && a.type.ns != xs) out.insert(a.type.ns);
        imports_of(a.group, out);
      }
      imports_of(f.particles, out);
    }
  }

  void write_particle(const std::string& schema_ns, const xsd_field& f) {
    switch (f.what) {
      case xsd_field::kind::element:
        write_element_particle(schema_ns, f.name, f.ns, f.type, f);
        break;
      case xsd_field::kind::any:
        w_.start_element(xs, "any");
        w_.attribute("", "namespace", f.default_text.empty() ? "##other" : f.default_text);
        w_.attribute("", "processContents", "lax");
        w_.attribute("", "minOccurs", occurs(f.min));
        w_.attribute("", "maxOccurs", occurs(f.max));
        w_.end_element();
        break;
      case xsd_field::kind::choice:
        w_.start_element(xs, "choice");
        w_.attribute("", "minOccurs", occurs(f.min));
        w_.attribute("", "maxOccurs", occurs(f.max));
        for (const auto& a : f.alternatives) {
          if (!a.group.empty()) {  // an inline group: its particles in a sequence
            w_.start_element(xs, "sequence");
            for (const auto& p : a.group) write_particle(schema_ns, p);
            w_.end_element();
            continue;
          }
          xsd_field one = f;
          one.min = one.max = 1;
          one.nillable = a.nillable;
          one.list = a.list;
          one.constraints = a.constraints;
          write_element_particle(schema_ns, a.name, f.ns, a.type, one);
        }
        w_.end_element();
        break;
      case xsd_field::kind::sequence:
        w_.start_element(xs, "sequence");
        if (f.min != 1) w_.attribute("", "minOccurs", occurs(f.min));
        if (f.max != 1) w_.attribute("", "maxOccurs", occurs(f.max));
        for (const auto& p : f.particles) write_particle(schema_ns, p);
        w_.end_element();
        break;
      default:
        break;
    }
  }

  void write_particles(const std::string& schema_ns, const std::vector<xsd_field>& fields) {
    bool has_children = false;
    for (const auto& f : fields)
      if (f.what != xsd_field::kind::attribute && f.what != xsd_field::kind::text &&
          f.what != xsd_field::kind::any_attribute)
        has_children = true;
    if (has_children) {
      w_.start_element(xs, "sequence");
      for (const auto& f : fields) write_particle(schema_ns, f);
      w_.end_element();
    }
    for (const auto& f : fields) {
      if (f.what != xsd_field::kind::attribute) continue;
      w_.start_element(xs, "attribute");
      w_.attribute("", "name", f.name);
      if (!anonymous_type(f)) w_.attribute("", "type", qname(f.type));
      if (!f.ns.empty()) w_.attribute("", "form", "qualified");
      if (f.required) w_.attribute("", "use", "required");
      if (!f.default_text.empty()) w_.attribute("", "default", f.default_text);
      if (anonymous_type(f)) write_anonymous_type(f.type, f.list, f.constraints);
      w_.end_element();
    }
    for (const auto& f : fields) {  // after the attributes, as XSD orders them
      if (f.what != xsd_field::kind::any_attribute) continue;
      w_.start_element(xs, "anyAttribute");
      w_.attribute("", "namespace", f.default_text.empty() ? "##any" : f.default_text);
      w_.attribute("", "processContents", "lax");
      w_.end_element();
    }
  }

  void write_element_particle(const std::string& schema_ns, const std::string& name,
                              const std::string& ns, const xsd_ref& type, const xsd_field& f) {
    w_.start_element(xs, "element");
    if (!ns.empty() && ns != schema_ns) {
      // An element of another namespace can only be referenced (a global element there).
      w_.attribute("", "ref", prefix_of(ns) + ":" + name);
    } else {
      w_.attribute("", "name", name);
      if (!anonymous_type(f)) w_.attribute("", "type", qname(type));
      w_.attribute("", "form", ns.empty() ? "unqualified" : "qualified");
      if (f.nillable) w_.attribute("", "nillable", "true");
      if (!f.default_text.empty()) w_.attribute("", "default", f.default_text);
    }
    if (f.min != 1) w_.attribute("", "minOccurs", occurs(f.min));
    if (f.max != 1) w_.attribute("", "maxOccurs", occurs(f.max));
    if (anonymous_type(f) && (ns.empty() || ns == schema_ns))
      write_anonymous_type(type, f.list, f.constraints);
    w_.end_element();
  }

  /// Whether a simple field's type is written in place (write_anonymous_type), not named.
  static bool anonymous_type(const xsd_field& f) { return f.constraints || f.list; }

  /// The anonymous type of a value of `base`, or of an xsd:list of `base` (`list`), with facets
  /// `f` (nullptr: none; a list's lengths count items and f->items holds its items' facets): a
  /// restriction step per pattern (the patterns of lather::bind::facets must each match, where
  /// one step's patterns would be alternatives), the other facets on the outermost step.
  void write_anonymous_type(const xsd_ref& base, bool list, const bind::facets* f) {
    if (!f)
      write_list(base, nullptr);
    else if (!list && described_union(*f) && f->patterns.empty() && f->enumeration.empty())
      write_union(*f);
    else
      write_restriction_step(base, list, *f, f->patterns.empty() ? 0 : f->patterns.size() - 1,
                             true);
  }
  /// Whether `f` is a union's whose member types are each known (facets::built_in): written
  /// as an xs:union of them (write_union), not as a restriction of the value's C++ type.
  static bool described_union(const bind::facets& f) {
    return !f.members.empty() &&
           std::all_of(f.members.begin(), f.members.end(),
                       [](const bind::facets* m) { return m != nullptr && !m->built_in.empty(); });
  }
  /// An xs:union of anonymous member types, each a restriction of its built-in by its facets.
  void write_union(const bind::facets& f) {
    w_.start_element(xs, "simpleType");
    w_.start_element(xs, "union");
    for (const bind::facets* m : f.members)
      write_anonymous_type({std::string(xs), std::string(m->built_in)}, false, m);
    w_.end_element();
    w_.end_element();
  }
  void write_list(const xsd_ref& item, const bind::facets* items) {
    w_.start_element(xs, "simpleType");
    w_.start_element(xs, "list");
    if (items)
      write_anonymous_type(item, false, items);
    else
      w_.attribute("", "itemType", qname(item));
    w_.end_element();
    w_.end_element();
  }
  void write_restriction_step(const xsd_ref& base, bool list, const bind::facets& f,
                              std::size_t step, bool outermost) {
    w_.start_element(xs, "simpleType");
    w_.start_element(xs, "restriction");
    if (step != 0)
      write_restriction_step(base, list, f, step - 1, false);
    else if (list)
      write_list(base, f.items);
    else if (described_union(f))  // a restriction of the union by its own facets
      write_union(f);
    else
      w_.attribute("", "base", qname(base));
    auto facet = [&](std::string_view name, std::string_view value) {
      w_.start_element(xs, name);
      w_.attribute("", "value", value);
      w_.end_element();
    };
    if (step < f.patterns.size()) facet("pattern", f.patterns[step].text());
    if (outermost) {
      auto counts = [&](const auto& list) {
        for (const auto& c : list)
          if (f.*c.limit != bind::no_facet) facet(c.name, std::to_string(f.*c.limit));
      };
      counts(bind::length_facets);
      counts(bind::digit_facets);
      for (const auto& b : bind::bound_facets)
        if (!(f.*b.limit).empty()) facet(b.name, f.*b.limit);
      for (std::string_view v : f.enumeration) facet("enumeration", v);
    }
    w_.end_element();
    w_.end_element();
  }

  void write_complex_body(const std::string& schema_ns, const xsd_type_def& t) {
    const xsd_field* text = nullptr;
    for (const auto& f : t.fields)
      if (f.what == xsd_field::kind::text) text = &f;
    if (text) {
      w_.start_element(xs, "simpleContent");
      w_.start_element(xs, "extension");
      w_.attribute("", "base", qname(text->type));
      std::vector<xsd_field> attrs;
      for (const auto& f : t.fields)
        if (f.what == xsd_field::kind::attribute || f.what == xsd_field::kind::any_attribute)
          attrs.push_back(f);
      write_particles(schema_ns, attrs);
      w_.end_element();
      w_.end_element();
    } else if (t.base) {
      w_.start_element(xs, "complexContent");
      w_.start_element(xs, "extension");
      w_.attribute("", "base", qname(*t.base));
      write_particles(schema_ns, t.fields);
      w_.end_element();
      w_.end_element();
    } else {
      write_particles(schema_ns, t.fields);
    }
  }

  void write_types() {
    w_.start_element(wsdl_ns, "types");
    for (const std::string& ns : schema_namespaces_) {
      std::set<std::string> imports;
      for (const auto& [key, t] : b_.types())
        if (t.id.ns == ns) {
          imports_of(t.fields, imports);
          if (t.base) imports.insert(t.base->ns);
        }
      for (const auto& e : b_.elements())
        if (e.ns == ns) {
          if (e.type && e.type->ns != xs) imports.insert(e.type->ns);
          imports_of(e.anonymous, imports);
        }
      // Each schema declares what its QName values use, so it stands alone when a tool
      // (xmllint, a schema cache) cuts it out of the WSDL.
      w_.declare_namespace("xsd", xs);
      if (!ns.empty() && ns != s_.target_namespace()) w_.declare_namespace(prefix_of(ns), ns);
      for (const auto& i : imports)
        if (!i.empty() && i != xs && i != s_.target_namespace())
          w_.declare_namespace(prefix_of(i), i);
      w_.start_element(xs, "schema");
      if (!ns.empty()) w_.attribute("", "targetNamespace", ns);
      w_.attribute("", "elementFormDefault", "qualified");
      for (const auto& i : imports) {
        if (i == ns || i == xs) continue;
        w_.start_element(xs, "import");
        if (!i.empty()) w_.attribute("", "namespace", i);
        w_.end_element();
      }
      for (const auto& [key, t] : b_.types()) {
        if (t.id.ns != ns) continue;
        if (t.enumeration) {
          w_.start_element(xs, "simpleType");
          w_.attribute("", "name", t.id.name);
          w_.start_element(xs, "restriction");
          w_.attribute("", "base", "xsd:string");
          for (const auto& v : t.values) {
            w_.start_element(xs, "enumeration");
            w_.attribute("", "value", v);
            w_.end_element();
          }
          w_.end_element();
          w_.end_element();
          continue;
        }
        w_.start_element(xs, "complexType");
        w_.attribute("", "name", t.id.name);
        if (t.abstract) w_.attribute("", "abstract", "true");
        write_complex_body(ns, t);
        w_.end_element();
      }
      for (const auto& e : b_.elements()) {
        if (e.ns != ns) continue;
        w_.start_element(xs, "element");
        w_.attribute("", "name", e.name);
        if (e.type) {
          w_.attribute("", "type", qname(*e.type));
        } else {
          w_.start_element(xs, "complexType");
          write_particles(ns, e.anonymous);
          w_.end_element();
        }
        w_.end_element();
      }
      w_.end_element();
    }
    w_.end_element();
  }

  void write_message(const std::string& name, const wsdl_operation_def& op, bool request) {
    w_.start_element(wsdl_ns, "message");
    w_.attribute("", "name", name);
    if (is_rpc(op.style)) {
      for (const auto& p : request ? op.request_parts : op.response_parts) {
        w_.start_element(wsdl_ns, "part");
        w_.attribute("", "name", p.name);
        w_.attribute("", "type", qname(p.type));
        w_.end_element();
      }
    } else if (!(request ? op.request_element : op.response_element).empty()) {
      // (An empty Body, lather/service/empty_body.hpp, is a message without a part.)
      w_.start_element(wsdl_ns, "part");
      w_.attribute("", "name",
                   op.style == soap::style::document_wrapped ? "parameters"
                   : request                                 ? op.request_element
                                                             : op.response_element);
      const std::string& ns = request || op.response_ns.empty() ? op.element_ns : op.response_ns;
      w_.attribute("", "element",
                   prefix_of(ns) + ":" + (request ? op.request_element : op.response_element));
      w_.end_element();
    }
    w_.end_element();
  }

  // One message per detail element, shared by the operations that declare a fault with it
  // (two operations' faults of one name may carry different elements): <name>Fault after the
  // first fault that declares it, made unique among the messages.
  // The same for headers and header faults: one message per element and part,
  // <element>Header, whose one part is named `part` ("fault" for a header fault).
  void name_messages() {
    std::set<std::string> names;
    for (const auto& op : b_.operations()) {
      names.insert(op.name + "Request");
      names.insert(op.name + "Response");
    }
    auto unique = [&](const std::string& stem) {
      std::string name = stem;
      for (int n = 2; !names.insert(name).second; ++n) name = stem + std::to_string(n);
      return name;
    };
    for (const auto& op : b_.operations())
      for (const auto& f : op.faults) {
        auto [it, added] = fault_messages_.try_emplace(std::pair{f.element.ns, f.element.name});
        if (added) it->second = unique(f.name + "Fault");
      }
    auto header_message = [&](const xsd_ref& e, const std::string& part) {
      auto [it, added] = header_messages_.try_emplace(std::tuple{e.ns, e.name, part});
      if (added) it->second = unique(e.name + "Header");
    };
    for (const auto& op : b_.operations())
      for (const auto& h : op.headers) {
        header_message(h.element, h.part);
        for (const xsd_ref& f : h.faults) header_message(f, "fault");
      }
  }

  void write_messages() {
    for (const auto& op : b_.operations()) {
      write_message(op.name + "Request", op, true);
      if (!op.one_way) write_message(op.name + "Response", op, false);
    }
    auto one_part = [&](const std::string& name, const std::string& part, const xsd_ref& e) {
      w_.start_element(wsdl_ns, "message");
      w_.attribute("", "name", name);
      w_.start_element(wsdl_ns, "part");
      w_.attribute("", "name", part);
      w_.attribute("", "element", qname(e));
      w_.end_element();
      w_.end_element();
    };
    for (const auto& [element, name] : fault_messages_)
      one_part(name, "fault", {element.first, element.second});
    for (const auto& [key, name] : header_messages_)
      one_part(name, std::get<2>(key), {std::get<0>(key), std::get<1>(key)});
  }

  const std::string& fault_message_name(const wsdl_fault_def& f) const {
    return fault_messages_.at(std::pair{f.element.ns, f.element.name});
  }

  std::string port_type_name() const {
    const std::string& name = s_.options().wsdl_names.port_type;
    return name.empty() ? s_.name() + "PortType" : name;
  }
  std::string binding_name(bool soap12) const {
    const std::string& name = s_.options().wsdl_names.binding;
    if (name.empty()) return s_.name() + (soap12 ? "Soap12Binding" : "SoapBinding");
    return soap12 ? name + "Soap12" : name;
  }
  std::string port_name(bool soap12) const {
    const std::string& name = s_.options().wsdl_names.port;
    if (name.empty()) return s_.name() + (soap12 ? "Soap12Port" : "SoapPort");
    return soap12 ? name + "Soap12" : name;
  }

  void write_port_type() {
    w_.start_element(wsdl_ns, "portType");
    w_.attribute("", "name", port_type_name());
    for (const auto& op : b_.operations()) {
      w_.start_element(wsdl_ns, "operation");
      w_.attribute("", "name", op.name);
      if (!op.documentation.empty() || !op.undescribed.empty()) {
        std::string text = op.documentation;
        if (!op.undescribed.empty()) {
          text += text.empty() ? "" : "\n";
          text += "Not described in this WSDL, as XML Schema cannot express its type: ";
          for (std::size_t i = 0; i < op.undescribed.size(); ++i)
            text += (i ? ", " : "") + op.undescribed[i];
          text += ".";
        }
        w_.start_element(wsdl_ns, "documentation");
        w_.text(text);
        w_.end_element();
      }
      w_.start_element(wsdl_ns, "input");
      w_.attribute("", "message", "tns:" + op.name + "Request");
      w_.end_element();
      if (!op.one_way) {
        w_.start_element(wsdl_ns, "output");
        w_.attribute("", "message", "tns:" + op.name + "Response");
        w_.end_element();
      }
      for (const auto& f : op.faults) {
        w_.start_element(wsdl_ns, "fault");
        w_.attribute("", "name", f.name);
        w_.attribute("", "message", "tns:" + fault_message_name(f));
        w_.end_element();
      }
      w_.end_element();
    }
    w_.end_element();
  }

  void write_body_binding(std::string_view bns, const wsdl_operation_def& op) {
    w_.start_element(bns, "body");
    if (op.style == soap::style::rpc_encoded) {
      w_.attribute("", "use", "encoded");
      w_.attribute("", "encodingStyle", "http://schemas.xmlsoap.org/soap/encoding/");
    } else {
      w_.attribute("", "use", "literal");
    }
    if (is_rpc(op.style)) w_.attribute("", "namespace", op.element_ns);
    w_.end_element();
  }

  void write_header_bindings(std::string_view bns, const wsdl_operation_def& op, bool response) {
    auto message = [&](const xsd_ref& e, const std::string& part) {
      return "tns:" + header_messages_.at(std::tuple{e.ns, e.name, part});
    };
    for (const auto& h : op.headers) {
      if (h.response != response) continue;
      w_.start_element(bns, "header");
      w_.attribute("", "message", message(h.element, h.part));
      w_.attribute("", "part", h.part);
      w_.attribute("", "use", "literal");
      if (h.required) w_.attribute(wsdl_ns, "required", "true");
      for (const xsd_ref& f : h.faults) {
        w_.start_element(bns, "headerfault");
        w_.attribute("", "message", message(f, "fault"));
        w_.attribute("", "part", "fault");
        w_.attribute("", "use", "literal");
        w_.end_element();
      }
      w_.end_element();
    }
  }

  void write_binding(bool soap12) {
    const std::string_view bns = soap12 ? soap12_binding_ns : soap11_binding_ns;
    w_.start_element(wsdl_ns, "binding");
    w_.attribute("", "name", binding_name(soap12));
    w_.attribute("", "type", "tns:" + port_type_name());
    w_.start_element(bns, "binding");
    const bool rpc = !b_.operations().empty() && is_rpc(b_.operations().front().style);
    w_.attribute("", "style", rpc ? "rpc" : "document");
    w_.attribute("", "transport", http_transport);
    w_.end_element();
    for (const auto& op : b_.operations()) {
      w_.start_element(wsdl_ns, "operation");
      w_.attribute("", "name", op.name);
      w_.start_element(bns, "operation");
      w_.attribute("", "soapAction", op.action);
      w_.attribute("", "style", is_rpc(op.style) ? "rpc" : "document");
      w_.end_element();
      w_.start_element(wsdl_ns, "input");
      write_body_binding(bns, op);
      write_header_bindings(bns, op, false);
      w_.end_element();
      if (!op.one_way) {
        w_.start_element(wsdl_ns, "output");
        write_body_binding(bns, op);
        write_header_bindings(bns, op, true);
        w_.end_element();
      }
      for (const auto& f : op.faults) {
        w_.start_element(wsdl_ns, "fault");
        w_.attribute("", "name", f.name);
        w_.start_element(bns, "fault");
        w_.attribute("", "name", f.name);
        w_.attribute("", "use", "literal");
        w_.end_element();
        w_.end_element();
      }
      w_.end_element();
    }
    w_.end_element();
  }

  void write_service(std::string_view address) {
    w_.start_element(wsdl_ns, "service");
    w_.attribute("", "name", s_.name());
    for (bool soap12 : {false, true}) {
      if (soap12 ? !s_.options().soap12 : !s_.options().soap11) continue;
      w_.start_element(wsdl_ns, "port");
      w_.attribute("", "name", port_name(soap12));
      w_.attribute("", "binding", "tns:" + binding_name(soap12));
      w_.start_element(soap12 ? soap12_binding_ns : soap11_binding_ns, "address");
      w_.attribute("", "location", address);
      w_.end_element();
      w_.end_element();
    }
    w_.end_element();
  }

  const service& s_;
  const wsdl_builder& b_;
  xml::output out_;
  xml::writer w_;
  std::map<std::string, std::string> prefixes_;
  std::set<std::string> schema_namespaces_;
  std::map<std::pair<std::string, std::string>, std::string> fault_messages_;  // element -> name
  // (element ns, element, part) -> name
  std::map<std::tuple<std::string, std::string, std::string>, std::string> header_messages_;
};

}  // namespace

xsd_ref wsdl_builder::type_of(const bind::type_description& d) {
  // A list has no name: where a named type is needed (a simple content's base, an RPC part),
  // its item type stands for it.
  if (d.kind == bind::type_kind::list) return type_of(d.item());
  xsd_ref id{std::string(d.ns), std::string(d.name)};
  if (d.kind == bind::type_kind::builtin || d.kind == bind::type_kind::any_type) return id;
  auto key = std::pair{id.ns, id.name};
  if (types_.count(key)) return id;
  xsd_type_def& t = types_[key];  // registered first: recursive types terminate
  t.id = id;
  if (d.kind == bind::type_kind::enumeration) {
    t.enumeration = true;
    for (std::string_view v : d.enum_values) t.values.emplace_back(v);
    return id;
  }
  t.abstract = d.abstract;
  std::optional<xsd_ref> base;
  if (d.base) base = type_of(d.base());
  std::vector<xsd_field> fields;
  for (const bind::field_description& f : d.fields)
    if (f.kind != bind::field_kind::unknown) fields.push_back(field_of(f));  // not in the schema
  xsd_type_def& def = types_[key];  // (the calls above may have moved it)
  def.base = std::move(base);
  def.fields = std::move(fields);
  for (bind::describe_fn derived : d.derived) type_of(derived());
  return id;
}

std::vector<xsd_field> wsdl_builder::fields_of(const bind::type_description& d) {
  std::vector<xsd_field> out = d.base ? fields_of(d.base()) : std::vector<xsd_field>{};
  for (const bind::field_description& f : d.fields)
    if (f.kind != bind::field_kind::unknown) out.push_back(field_of(f));
  return out;
}

xsd_field wsdl_builder::field_of(const bind::field_description& f) {
  xsd_field x;
  x.name = std::string(f.name);
  x.ns = std::string(f.ns);
  x.min = f.min_occurs;
  x.max = f.max_occurs;
  x.nillable = f.nillable;
  x.required = f.required;
  if (f.has_default) x.default_text = std::string(f.default_value);
  x.constraints = f.constraints;
  switch (f.kind) {
    case bind::field_kind::attribute:
      x.what = xsd_field::kind::attribute;
      break;
    case bind::field_kind::text:
      x.what = xsd_field::kind::text;
      break;
    case bind::field_kind::any:
      x.what = xsd_field::kind::any;
      x.default_text = std::string(f.default_value);  // its namespace constraint, if any
      break;
    case bind::field_kind::any_attribute:
      x.what = xsd_field::kind::any_attribute;
      x.default_text = std::string(f.default_value);  // its namespace constraint, if any
      break;
    case bind::field_kind::element:
    case bind::field_kind::unknown:  // (left out by the callers: not in the schema)
      x.what = xsd_field::kind::element;
      break;
  }
  const bind::type_description& v = f.type();
  if (v.group) {  // an inline group: its particles in place, no type of its own
    x.what = xsd_field::kind::sequence;
    x.particles = fields_of(v);
  } else if (v.kind == bind::type_kind::choice) {
    x.what = xsd_field::kind::choice;
    for (const bind::choice_alternative& a : f.alternatives) {
      const bind::type_description& t = a.type();
      if (t.group)
        x.alternatives.push_back({std::string(a.name), {}, false, fields_of(t)});
      else
        x.alternatives.push_back({std::string(a.name),
                                  type_of(t),
                                  a.nillable,
                                  {},
                                  t.kind == bind::type_kind::list,
                                  a.constraints});
    }
  } else if (v.kind != bind::type_kind::any_element && v.kind != bind::type_kind::any_attributes) {
    x.list = v.kind == bind::type_kind::list;
    x.type = type_of(v);
  }
  return x;
}

void wsdl_builder::add_element(std::string ns, std::string name, std::vector<xsd_field> anonymous) {
  for (const auto& e : elements_)
    if (e.ns == ns && e.name == name) return;
  elements_.push_back({std::move(ns), std::move(name), std::nullopt, std::move(anonymous)});
}

void wsdl_builder::add_element(std::string ns, std::string name, xsd_ref type) {
  for (const auto& e : elements_)
    if (e.ns == ns && e.name == name) return;
  elements_.push_back({std::move(ns), std::move(name), std::move(type), {}});
}

void wsdl_builder::add_operation(wsdl_operation_def op, const operation_options& o) {
  // Registers {ns}element of type `t`; false (and named in op.undescribed) when the schema
  // cannot express `t`.
  auto describe = [&](const std::string& what, const std::string& ns, const std::string& element,
                      const message_type* t) {
    if (t && t->schema.describe) {
      add_element(ns, element, t->schema.type(*this));
      return true;
    }
    op.undescribed.push_back(what + " {" + ns + "}" + element);
    return false;
  };
  // WSDL 1.1 one-way operations have no faults.
  if (!op.one_way)
    for (const fault_declaration& f : o.faults)
      if (describe("fault " + f.name, f.ns, f.element, f.detail))
        op.faults.push_back({f.name, {f.ns, f.element}});
  for (const header_declaration& h : o.headers) {
    if (!describe(h.response ? "response header" : "request header", h.ns, h.element, h.type))
      continue;
    wsdl_header_def& d = op.headers.emplace_back();
    d.element = {h.ns, h.element};
    d.part = h.part.empty() ? h.element : h.part;
    d.response = h.response;
    d.required = h.required;
    for (const fault_declaration& f : h.faults)
      if (describe("header fault", f.ns, f.element, f.detail))
        d.faults.push_back({f.ns, f.element});
  }
  operations_.push_back(std::move(op));
}

std::vector<xsd_field> message_schema::fields(wsdl_builder& b) const {
  return b.fields_of(describe());
}
xsd_ref message_schema::type(wsdl_builder& b) const {
  return b.type_of(describe());
}

void detail::describe_operation(wsdl_builder& b, const operation_entry& op, bool has_response,
                                const message_schema& req, const message_schema& resp) {
  const operation_options& o = op.options();
  wsdl_operation_def d;
  d.name = op.name();
  d.action = o.soap_action;
  d.documentation = o.documentation;
  d.style = o.style;
  d.one_way = !has_response;
  d.element_ns = std::string(op.request_ns());
  d.response_ns = std::string(op.response_ns());
  d.request_element = std::string(op.request_element());
  d.response_element = std::string(op.response_element());
  const std::string& ns = d.element_ns;
  const bool response = has_response && resp.describe;
  // An empty Body (lather/service/empty_body.hpp) has no element to declare.
  const bool request = !d.request_element.empty();
  // Messages the schema cannot express are described by service_options::static_wsdl.
  if (req.expressible && resp.expressible && (req.describe || !request)) {
    switch (o.style) {
      case soap::style::document_wrapped:
        if (request) b.add_element(ns, d.request_element, req.fields(b));
        if (response) b.add_element(d.response_ns, d.response_element, resp.fields(b));
        break;
      case soap::style::document_bare:
        if (request) b.add_element(ns, d.request_element, req.type(b));
        if (response) b.add_element(d.response_ns, d.response_element, resp.type(b));
        break;
      case soap::style::rpc_literal:
      case soap::style::rpc_encoded:
        d.request_parts = req.fields(b);
        if (response) d.response_parts = resp.fields(b);
        break;
    }
  }
  b.add_operation(std::move(d), o);
}

std::string generate_wsdl(const service& s, std::string_view address) {
  wsdl_builder b;
  for (const auto& op : s.operations()) op->describe(b);
  return wsdl_writer{s, b}.write(address);
}

}  // namespace lather
