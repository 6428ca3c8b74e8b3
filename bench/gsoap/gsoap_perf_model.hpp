// bench/gsoap/gsoap_perf_model.hpp — what the gSOAP codec, server and client share: namespace
// tables and the CXF client's payload as gSOAP objects. Includes the generated soapH.h, so only
// sources of bench/gsoap/ include it.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "command_line.hpp"

#include "gsoap_perf.hpp"
#include "soapH.h"

namespace gsoap_perf {

/// The generated namespace table, or the same table plus a fixed prefix for the QName namespace.
const Namespace* namespace_table(gsoap_qname_prefix qname);

/// The CXF perf client's NestedComplexType values (README of shared/bench/cxf-perf), held as
/// gSOAP objects that this payload owns; a request repeats one item like the CXF client does.
class cxf_payload {
 public:
  explicit cxf_payload(gsoap_qname_prefix qname);
  cxf_payload(const cxf_payload&) = delete;
  cxf_payload& operator=(const cxf_payload&) = delete;

  /// Points `seq.item` at `items` copies of the one item (no allocation once capacity is there).
  void fill(x1__NestedComplexTypeSeq& seq, int items);

  /// 1024 characters of the CXF echoStringDoc pattern times `packet_size`.
  static std::string echo_string(int packet_size);
  /// CXF's fixed 1024-byte echoBase64Doc array (4 x the -128..127 pattern).
  const std::array<unsigned char, 1024>& echo_bytes() const { return echo_bytes_; }

 private:
  std::array<unsigned char, 1024> echo_bytes_{};
  std::string struct_string_;
  x1__SimpleStruct struct_;
  x1__NestedComplexType item_;
};

/// The value of --io (buffer|store|chunk) as gSOAP's SOAP_IO_ mode; anything else is a usage
/// error.
int parse_io_mode(const lather::tools::command_line& cli, std::string_view name);
/// The value of --qname-prefix (generated|fixed); anything else is a usage error.
gsoap_qname_prefix parse_qname_prefix(const lather::tools::command_line& cli,
                                      std::string_view name);

}  // namespace gsoap_perf
