// bench/gsoap/gsoap_perf_model.cpp — namespace tables and the CXF payload as gSOAP objects.
#include "gsoap_perf_model.hpp"

#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <vector>

// The generated global namespaces[] that libgsoap++ refers to; defined exactly once, here.
#include "SoapBindingDocLit.nsmap"

namespace gsoap_perf {
namespace {

constexpr const char* qname_namespace = "http://cxf.apache.org";

std::vector<Namespace> fixed_prefix_table() {
  std::vector<Namespace> table;
  for (const Namespace* entry = namespaces; entry->id != nullptr; ++entry) table.push_back(*entry);
  table.push_back({"cxf", qname_namespace, nullptr, nullptr});
  table.push_back({nullptr, nullptr, nullptr, nullptr});
  return table;
}

}  // namespace

const Namespace* namespace_table(gsoap_qname_prefix qname) {
  if (qname == gsoap_qname_prefix::as_generated) return namespaces;
  static const std::vector<Namespace> fixed = fixed_prefix_table();
  return fixed.data();
}

cxf_payload::cxf_payload(gsoap_qname_prefix qname) {
  // Java bytes -128..127, i.e. 0x80..0xFF then 0x00..0x7F.
  for (std::size_t i = 0; i < echo_bytes_.size(); ++i) {
    echo_bytes_[i] = static_cast<unsigned char>((i + 128) & 0xFF);
  }
  struct_string_ = "1234567890!@#$%^&*()abcdefghijk";
  struct_.varFloat = FLT_MAX;
  struct_.varShort = 32767;
  struct_.varString = struct_string_;
  struct_.varByte = 127;
  struct_.varDecimal = "3.1415926";
  struct_.varDouble = DBL_MAX;
  struct_.varDateTime = 1133568009;  // 2005-12-03T00:00:09Z
  struct_.varAttrString = &struct_string_;

  item_.varString = "#12345ABc";
  item_.varUByte = 255;
  item_.varUnsignedLong = 13691056728ULL;
  item_.varFloat = FLT_MAX;
  // gSOAP's QName strings are "prefix:local" for a namespace in the table, else "\"URI\":local".
  item_.varQName = qname == gsoap_qname_prefix::fixed
                       ? std::string("cxf:return")
                       : "\"" + std::string(qname_namespace) + "\":return";
  item_.varBase64Binary.__ptr = echo_bytes_.data();
  item_.varBase64Binary.__size = 256;
  item_.varHexBinary.__ptr = echo_bytes_.data();
  item_.varHexBinary.__size = 256;
  item_.varStruct = &struct_;
  item_.varEnum = x1__ColourEnum__RED;
}

void cxf_payload::fill(x1__NestedComplexTypeSeq& seq, int items) {
  seq.item.assign(static_cast<std::size_t>(items), &item_);
}

std::string cxf_payload::echo_string(int packet_size) {
  static constexpr const char* pattern =
      "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*()_+?><[]/0123456789";
  std::string text;
  text.reserve(static_cast<std::size_t>(packet_size) * 1024);
  for (int i = 0; i < 16 * packet_size; ++i) text += pattern;
  return text;
}

int parse_io_mode(const lather::tools::command_line& cli, std::string_view name) {
  if (name == "buffer") return SOAP_IO_BUFFER;  // two passes: count for Content-Length, send
  if (name == "store") return SOAP_IO_STORE;    // one pass into memory, then Content-Length
  if (name == "chunk") return SOAP_IO_CHUNK;    // one pass, chunked transfer encoding
  cli.fail("--io: '" + std::string(name) + "' is not buffer, store or chunk");
}

gsoap_qname_prefix parse_qname_prefix(const lather::tools::command_line& cli,
                                      std::string_view name) {
  if (name == "generated") return gsoap_qname_prefix::as_generated;
  if (name == "fixed") return gsoap_qname_prefix::fixed;
  cli.fail("--qname-prefix: '" + std::string(name) + "' is not generated or fixed");
}

}  // namespace gsoap_perf
