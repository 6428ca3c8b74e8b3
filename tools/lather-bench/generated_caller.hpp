// lather-bench --generated: echoComplexTypeDoc through the client proxy that lather-wsdl2cpp
// generates from perf.wsdl (built with lather-bench), to set the generated path beside the
// hand-written one in the same run.
#pragma once

#include <memory>
#include <string>

#include "harness.hpp"

namespace lather {
struct client_options;
}

namespace lather::bench {

/// A caller of perfgen::DocPortTypeClient::echoComplexTypeDoc with `packet_size` items (the
/// values of perf::make_cxf_item), each echo's id checked and, with `verify`, its items.
std::unique_ptr<caller> make_generated_caller(const std::string& url, const client_options& o,
                                              unsigned packet_size, bool verify);

}  // namespace lather::bench
