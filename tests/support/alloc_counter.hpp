// tests/support/alloc_counter.hpp — counts heap allocations for the "no allocation in steady
// state" tests. Linking the `lather_test_alloc_counter` library into a test binary replaces the
// global operator new and delete of that binary (alloc_counter.cpp) with ones that count:
//
//   const std::uint64_t before = lather::test::thread_allocations();
//   parse(reader, doc);
//   EXPECT_EQ(lather::test::thread_allocations() - before, 0u);
//
// Every form of operator new is counted but the over-aligned ones, which the C++ runtime (or a
// sanitizer's runtime) keeps paired with its own delete. Under ASan and TSan the replacements
// win over the sanitizer's interceptors of new and delete; the memory still comes from its
// intercepted malloc, so heap errors are reported as in any other test.
#pragma once
#include <cstdint>

namespace lather::test {

/// Calls of the replaced operator new made so far by every thread of this process.
std::uint64_t allocations();

/// Calls of the replaced operator new made so far by the calling thread.
std::uint64_t thread_allocations();

}  // namespace lather::test
