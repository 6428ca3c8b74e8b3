#include "generated_caller.hpp"

#include <cstdint>
#include <stdexcept>

#include "lather/perf/types.hpp"
#include "lather/service/client.hpp"
#include "perf/DocPortType.hpp"

namespace lather::bench {
namespace {

// perf::make_cxf_item's values in the generated types: the same request on the wire.
perfgen::NestedComplexType generated_item() {
  const perf::NestedComplexType h = perf::make_cxf_item();
  perfgen::NestedComplexType t;
  t.varString = h.varString;
  t.varUByte = h.varUByte;
  t.varUnsignedLong = h.varUnsignedLong;
  t.varFloat = h.varFloat;
  t.varQName = h.varQName;
  t.varBase64Binary = h.varBase64Binary;
  t.varHexBinary = h.varHexBinary;
  t.varEnum = perfgen::ColourEnum::RED;
  perfgen::SimpleStruct& s = t.varStruct;
  s.varFloat = h.varStruct.varFloat;
  s.varShort = h.varStruct.varShort;
  s.varString = h.varStruct.varString;
  s.varByte = h.varStruct.varByte;
  s.varDecimal = h.varStruct.varDecimal;
  s.varDouble = h.varStruct.varDouble;
  s.varDateTime = h.varStruct.varDateTime;
  s.varAttrString = h.varStruct.varAttrString;
  return t;
}

// As the hand-written complex_caller of a throughput run: one request and one response per
// client, reused (no allocation per call once warm), each echo checked at once.
class generated_caller final : public caller {
 public:
  generated_caller(const std::string& url, const client_options& o, unsigned packet_size,
                   bool verify)
      : client_(url, o), proxy_(client_), verify_(verify) {
    request_.in.item.assign(packet_size, generated_item());
  }
  void call(std::int32_t id) override {
    request_.id = id;
    proxy_.echoComplexTypeDoc(request_, response_);
    if (response_.idout != id)
      throw std::runtime_error("wrong id echoed: sent " + std::to_string(id) + ", got " +
                               std::to_string(response_.idout));
    if (verify_ && !(response_.return_ == request_.in))
      throw std::runtime_error("echoed NestedComplexTypeSeq differs from the one sent (" +
                               std::to_string(response_.return_.item.size()) + " of " +
                               std::to_string(request_.in.item.size()) + " items back)");
  }

 private:
  client client_;
  perfgen::DocPortTypeClient proxy_;
  bool verify_;
  perfgen::echoComplexTypeDoc request_;
  perfgen::echoComplexTypeDocResponse response_;
};

}  // namespace

std::unique_ptr<caller> make_generated_caller(const std::string& url, const client_options& o,
                                              unsigned packet_size, bool verify) {
  return std::make_unique<generated_caller>(url, o, packet_size, verify);
}

}  // namespace lather::bench
