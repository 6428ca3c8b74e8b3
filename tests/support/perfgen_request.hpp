// An echoComplexTypeDoc request of perf.wsdl's generated types (lather-wsdl2cpp --namespace
// perfgen, into <generated>/perf), with every kind of field set, for the tests that call a
// generated or hand-written perf service.
#pragma once

#include <cstddef>
#include <string>

#include "perf/types.hpp"

namespace lather_test {

inline perfgen::echoComplexTypeDoc perfgen_request(int items) {
  perfgen::echoComplexTypeDoc req;
  req.in.item.resize(static_cast<std::size_t>(items));
  for (int i = 0; i < items; ++i) {
    perfgen::NestedComplexType& t = req.in.item[static_cast<std::size_t>(i)];
    t.varString = "item <" + std::to_string(i) + ">";
    t.varUByte = 255;
    t.varUnsignedLong = 18446744073709551615u;
    t.varQName = {"http://cxf.apache.org", "return", ""};
    t.varEnum = perfgen::ColourEnum::BLUE;
    t.varStruct.varDecimal.text = "3.1415926";
    t.varStruct.varDateTime.year = 2005;
    t.varStruct.varDateTime.month = 12;
    t.varStruct.varDateTime.day = 3;
    t.varStruct.varAttrString = "attr";
  }
  req.id = 42;
  return req;
}

}  // namespace lather_test
