// Where a test finds the checkout, the data beside it and the programs of its build: absolute
// paths, defined once per build directory in the generated paths.cpp (paths.cpp.in) rather than
// on each test's compile command, so that a test object is the same in every clone and ccache
// (base_dir) serves it from another checkout's build.
#pragma once

namespace lather::test {

extern const char source_dir[];   ///< the checkout
extern const char shared_dir[];   ///< ../shared beside it (contracts, corpora, seeds)
extern const char bin_dir[];      ///< the build's programs (lather-perf-server, ...)
extern const char wsdl_corpus[];  ///< LATHER_WSDL_CORPUS (shared/wsdl-corpus unless set)

}  // namespace lather::test
