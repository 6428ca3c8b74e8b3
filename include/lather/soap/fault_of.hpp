// lather/soap/fault_of.hpp — faults whose detail is a bound struct (lather::meta<Detail>).
//
// Server: declare the fault on the operation (operation_options::faults, so the WSDL has its
// wsdl:fault and detail element) and throw it from the handler:
//   throw lather::soap::fault_of<InvalidId>{"no such id", InvalidId{id}};
// The detail entry is written as element {meta<Detail>::ns}meta<Detail>::name.
// Client: the call throws soap::fault_error; read the typed detail back with
//   if (auto d = lather::soap::detail_as<InvalidId>(e)) ...
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lather/bind/bind.hpp"
#include "lather/soap/fault.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

template <class Detail>
class fault_of : public fault_error {
 public:
  fault_of(std::string reason, Detail detail, fault_code code = fault_code::sender)
      : fault_of(std::move(reason), std::move(detail), meta<Detail>::ns, meta<Detail>::name, code) {
  }
  /// The detail entry written as element {ns}element: a contract's fault element whose type
  /// has another name (lather-wsdl2cpp's fault classes).
  fault_of(std::string reason, Detail detail, std::string_view ns, std::string_view element,
           fault_code code = fault_code::sender)
      : fault_error(make(std::move(reason), detail, ns, element, code)),
        detail_(std::move(detail)) {}
  /// A fault as received, with its detail entry already read into `detail` (lather-wsdl2cpp's
  /// client proxies): code, reason and detail_xml stay as the peer sent them.
  fault_of(fault received, Detail detail)
      : fault_error(std::move(received)), detail_(std::move(detail)) {}
  const Detail& detail() const noexcept { return detail_; }

 private:
  static fault make(std::string reason, const Detail& d, std::string_view ns,
                    std::string_view element, fault_code code) {
    fault f;
    f.code = code;
    f.reason = std::move(reason);
    f.set_detail([&](xml::writer& w) { bind::write(w, ns, element, d); });
    return f;
  }
  Detail detail_;
};

/// A fault whose detail entry is the element of a typed fault the contract declares, but does
/// not bind to that fault's detail type (a peer that sends another shape than the contract
/// says): lather-wsdl2cpp's client proxies throw it instead of that fault's class. As CXF
/// falls back to a plain SOAPFaultException, it is a fault_error (code, reason and detail_xml
/// as received), and it says which element did not bind and why (what() says both too).
class fault_detail_error : public fault_error {
 public:
  fault_detail_error(fault received, std::string_view ns, std::string_view element,
                     bind::error_info why)
      : fault_error(std::move(received)), ns_(ns), element_(element), why_(std::move(why)) {
    what_ = std::string(fault_error::what()) + " (its detail {" + ns_ + "}" + element_ +
            " does not bind: " + why_.message + ")";
  }
  /// The detail element {detail_ns()}detail_element() that did not bind.
  const std::string& detail_ns() const noexcept { return ns_; }
  const std::string& detail_element() const noexcept { return element_; }
  /// Why: the binding's error (code, path in the element, message).
  const bind::error_info& why() const noexcept { return why_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string ns_, element_, what_;
  bind::error_info why_;
};

/// The first detail entry named {meta<Detail>::ns}meta<Detail>::name, bound; nullopt when the
/// fault has no such entry. A malformed entry throws bind::error.
template <class Detail>
std::optional<Detail> detail_as(const fault& f) {
  std::optional<Detail> out;
  f.read_detail([&out](xml::reader& r) {
    if (!out && r.is(meta<Detail>::ns, meta<Detail>::name)) {
      bind::read_or_throw(r, out.emplace());
    } else {
      r.skip_element();
    }
  });
  return out;
}
template <class Detail>
std::optional<Detail> detail_as(const fault_error& e) {
  return detail_as<Detail>(e.get());
}

}  // namespace lather::soap
