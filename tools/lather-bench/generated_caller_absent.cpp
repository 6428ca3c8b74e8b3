// lather-bench built without perf.wsdl (../shared/bench/cxf-perf): no generated proxy.
#include <stdexcept>

#include "generated_caller.hpp"

namespace lather::bench {

std::unique_ptr<caller> make_generated_caller(const std::string&, const client_options&, unsigned,
                                              bool) {
  throw std::runtime_error("--generated: lather-bench was built without perf.wsdl");
}

}  // namespace lather::bench
