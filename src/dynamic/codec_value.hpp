// Values to XML and back one element at a time along the runtime type model: value_writer
// (codec_write.cpp), value_reader and the multi-ref index of an encoded message
// (codec_read.cpp). The message-level codec (codec.cpp) and the samples are built on them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lather/dynamic/value.hpp"
#include "lather/soap/capture.hpp"
#include "lather/soap/style.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"
#include "types.hpp"

namespace lather::dynamic::detail {

inline constexpr std::string_view xsi = soap::xsi_ns;
inline constexpr std::string_view soapenc = soap::soap11_encoding_ns;

// Dimensions of a SOAP-ENC array type: wsdl:arrayType="T[,]" is 2 (rows of items, nested
// arrays in a value), "T[]" and "T[][]" (an array of arrays) 1.
inline std::size_t rank_of(const wsdl::array_type& a) {
  const std::string_view d = a.dimensions;
  return static_cast<std::size_t>(std::count(d.begin(), d.begin() + d.find(']'), ',')) + 1;
}

class value_writer {
 public:
  value_writer(const type_model& tm, xml::writer& w, bool encoded)
      : tm_(tm), w_(w), encoded_(encoded) {}

  void element(const wsdl::element_decl& e, const value& v, const std::string& path);

  // An element {ns}local of type `t` holding `v`.
  void accessor(std::string_view ns, std::string_view local, const wsdl::type& t, const value& v,
                const std::string& path, bool nillable);

 private:
  void type_attribute(const wsdl::type& t);

  [[noreturn]] void mismatch(const std::string& path, const std::string& what) const;

  void content(const wsdl::type& declared, const value& v, const std::string& path);

  std::string unknown_member(const flat_type& f, const wsdl::complex_type& ct) const;

  // SOAP-ENC array: the items as <item>, arrayType="T[n]"; a rank-2 array (wsdl:arrayType
  // "T[,]") is an array of equally long rows, written row after row as "T[rows,columns]".
  void array_content(const wsdl::complex_type& ct, const value& v, const std::string& path);

  // anyType: text, raw XML (a string starting with '<'), or an object of text children.
  void any_content(const value& v, const std::string& path);

  std::string lexical(const wsdl::simple_type& t, const value& v, const std::string& path) const;

  const type_model& tm_;
  xml::writer& w_;
  bool encoded_;
};

// Every element of an encoded message that carries an id (SOAP 1.1 multi-refs after the
// wrapper or in place, SOAP 1.2 enc:id anywhere), found in one pass: where it is in the
// envelope and the namespaces in scope at its parent. Looked up by hash; a reference reads
// that slice of the envelope, so nested ids cost nothing more.
class references {
 public:
  explicit references(std::string_view envelope);

  struct target {
    std::size_t begin = 0, end = 0;  // the element in the envelope, start tag to end tag
    std::vector<soap::namespace_binding> scope;
  };
  const target* find(std::string_view id) const;
  /// The element as a document of its own: a wrapper declaring what was in scope, around it.
  std::string document(const target& t) const;
  std::span<const std::string> duplicates() const noexcept { return duplicates_; }

 private:
  std::string_view envelope_;
  std::unordered_map<std::string, target> ids_;
  std::vector<std::string> duplicates_;
};

class value_reader {
 public:
  /// `in_scope`: the namespace bindings in scope at the parent of the elements read (wildcard
  /// content is captured with them); `refs`: the message's multi-ref values (encoded).
  value_reader(const type_model& tm, xml::reader& r, std::vector<std::string>& problems,
               std::span<const soap::namespace_binding> in_scope = {},
               const references* refs = nullptr)
      : tm_(tm),
        r_(r),
        problems_(problems),
        scope_(in_scope.begin(), in_scope.end()),
        refs_(refs) {}

  // The reader is on the element's start tag; leaves it on its end tag.
  value element(const wsdl::type& declared, const std::string& path, bool nillable);

  void problem(const std::string& path, const std::string& what);

 private:
  value element_in_scope(const wsdl::type& declared, const std::string& path, bool nillable);

  value content_of(const wsdl::type& t, const std::string& derived_name, const std::string& path);

  // Why xsi:type `named` does not fit the simple type `declared` ("" when it does): the same
  // built-in, or both integers (the value is checked against the declared range) or both
  // floating point. SOAP-ENC's own types (soapenc:string, ...) are taken as their XSD ones.
  static std::string simple_type_mismatch(const wsdl::simple_type& declared,
                                          const wsdl::type& named);

  // An accessor with href="#id" (SOAP 1.1) or enc:ref="id" (SOAP 1.2): the value of the
  // element with that id, read as `declared`.
  value referenced(const wsdl::type& declared, std::string_view id_view, const std::string& path,
                   bool soap12);

  void skip();

  xml::token next();

  const wsdl::type* resolve_type(std::string_view qname);

  // Text up to the end tag; child elements are problems (and skipped).
  std::string text_content(const std::string& path);

  value any_element(const std::string& path);

  value complex(const wsdl::complex_type& ct, const std::string& path);

  // The items of a SOAP-ENC array; when its arrayType ("T[2,3]") or SOAP 1.2 enc:arraySize
  // ("2 3", "* 3") gives two or more sizes, nested arrays of them, row by row.
  value array_items(const wsdl::complex_type& ct, const std::string& path);

  static bool parse_size(std::string_view text, std::vector<std::size_t>& dims);

  // The first whitespace-separated token of `text`, removed from it ("" at the end).
  static std::string_view first_token(std::string_view& text);

  const type_model& tm_;
  xml::reader& r_;
  std::vector<std::string>& problems_;
  std::vector<soap::namespace_binding> scope_;  // declarations in scope, innermost last
  const references* refs_;
  std::vector<std::string> resolving_;  // the ids being read, in place or referenced (cycles)
};

}  // namespace lather::dynamic::detail
