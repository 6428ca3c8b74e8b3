// lather/soap/fault_of.hpp — faults whose detail is a bound struct (lather::meta<Detail>).
//
// Server: declare the fault on the operation (operation_options::faults, so the WSDL has its
// wsdl:fault and detail element) and throw it from the handler:
//   throw lather::soap::fault_of<InvalidId>{"no such id", InvalidId{id}};
// The detail entry is written as element {meta<Detail>::ns}meta<Detail>::name.
// Client: the call throws soap::fault_error; read the typed detail back with
//   if (auto d = lather::soap::detail_as<InvalidId>(e)) ...
// A fault about a request header (WSDL soap:headerfault) carries its entry in the fault's
// Header instead: header_fault_of<Detail> and header_as<Detail>.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lather/bind/bind.hpp"
#include "lather/soap/fault.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::soap {

/// A fault with a typed entry {ns}element of type Detail: in its detail (InHeader false:
/// fault_of), or in the fault message's Header (true: header_fault_of).
template <class Detail, bool InHeader>
class typed_fault : public fault_error {
 public:
  typed_fault(std::string reason, Detail detail, fault_code code = fault_code::sender)
      : typed_fault(std::move(reason), std::move(detail), meta<Detail>::ns, meta<Detail>::name,
                    code) {}
  /// The entry written as element {ns}element: a contract's element whose type has another
  /// name (lather-wsdl2cpp's fault classes).
  typed_fault(std::string reason, Detail detail, std::string_view ns, std::string_view element,
              fault_code code = fault_code::sender)
      : fault_error(make(std::move(reason), detail, ns, element, code)),
        detail_(std::move(detail)) {}
  /// A fault as received, with its entry already read into `detail` (lather-wsdl2cpp's client
  /// proxies): code, reason, detail_xml and header_xml stay as the peer sent them.
  typed_fault(fault received, Detail detail)
      : fault_error(std::move(received)), detail_(std::move(detail)) {}
  const Detail& detail() const noexcept { return detail_; }

 private:
  static fault make(std::string reason, const Detail& d, std::string_view ns,
                    std::string_view element, fault_code code) {
    fault f;
    f.code = code;
    f.reason = std::move(reason);
    auto write = [&](xml::writer& w) { bind::write(w, ns, element, d); };
    if constexpr (InHeader)
      f.set_header(write);
    else
      f.set_detail(write);
    return f;
  }
  Detail detail_;
};

/// A fault whose detail entry is a Detail.
template <class Detail>
class fault_of : public typed_fault<Detail, false> {
 public:
  using typed_fault<Detail, false>::typed_fault;
};

/// A fault caused by a SOAP header of the request (a WSDL 1.1 soap:headerfault): its typed
/// entry travels in the fault message's Header and the Fault has no detail, since SOAP 1.1
/// (section 4.4) says the detail element must not carry information about header entries.
/// Server: throw it from the handler or an interceptor's `before`, where the header was
/// checked; the client reads it back with header_as<Detail>(e) (lather-wsdl2cpp's proxies
/// throw their generated class of it). detail() is the header entry's value.
template <class Detail>
class header_fault_of : public typed_fault<Detail, true> {
 public:
  using typed_fault<Detail, true>::typed_fault;
};

/// A fault whose detail entry is the element of a typed fault the contract declares, but does
/// not bind to that fault's detail type (a peer that sends another shape than the contract
/// says): lather-wsdl2cpp's client proxies throw it instead of that fault's class. As CXF
/// falls back to a plain SOAPFaultException, it is a fault_error (code, reason and detail_xml
/// as received), and it says which element did not bind and why (what() says both too).
class fault_detail_error : public fault_error {
 public:
  /// `in_header`: the entry is a header entry of the fault (a soap:headerfault's), not a
  /// detail entry.
  fault_detail_error(fault received, std::string_view ns, std::string_view element,
                     bind::error_info why, bool in_header = false)
      : fault_error(std::move(received)),
        ns_(ns),
        element_(element),
        why_(std::move(why)),
        in_header_(in_header) {
    what_ = std::string(fault_error::what()) +
            (in_header ? " (its header entry {" : " (its detail {") + ns_ + "}" + element_ +
            " does not bind: " + why_.message + ")";
  }
  /// The detail element {detail_ns()}detail_element() that did not bind.
  const std::string& detail_ns() const noexcept { return ns_; }
  const std::string& detail_element() const noexcept { return element_; }
  /// Why: the binding's error (code, path in the element, message).
  const bind::error_info& why() const noexcept { return why_; }
  /// The entry is in the fault's Header (header_xml), not in its detail.
  bool in_header() const noexcept { return in_header_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string ns_, element_, what_;
  bind::error_info why_;
  bool in_header_;
};

/// The first entry named {meta<Detail>::ns}meta<Detail>::name that `read` (fault::read_detail
/// or fault::read_header) offers, bound; nullopt when there is none. A malformed entry throws
/// bind::error.
template <class Detail>
std::optional<Detail> first_entry_as(const fault& f,
                                     bool (fault::*read)(const std::function<void(xml::reader&)>&)
                                         const) {
  std::optional<Detail> out;
  (f.*read)([&out](xml::reader& r) {
    if (!out && r.is(meta<Detail>::ns, meta<Detail>::name)) {
      bind::read_or_throw(r, out.emplace());
    } else {
      r.skip_element();
    }
  });
  return out;
}

/// The first detail entry named {meta<Detail>::ns}meta<Detail>::name, bound; nullopt when the
/// fault has no such entry. A malformed entry throws bind::error.
template <class Detail>
std::optional<Detail> detail_as(const fault& f) {
  return first_entry_as<Detail>(f, &fault::read_detail);
}
template <class Detail>
std::optional<Detail> detail_as(const fault_error& e) {
  return detail_as<Detail>(e.get());
}

/// The same for the fault's header entries (header_fault_of, a soap:headerfault's entry).
template <class Detail>
std::optional<Detail> header_as(const fault& f) {
  return first_entry_as<Detail>(f, &fault::read_header);
}
template <class Detail>
std::optional<Detail> header_as(const fault_error& e) {
  return header_as<Detail>(e.get());
}

}  // namespace lather::soap
