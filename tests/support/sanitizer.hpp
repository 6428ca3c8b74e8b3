// tests/support/sanitizer.hpp — whether this test binary is built with a sanitizer.
//
// A test that measures the process's memory (peak RSS, memory given back) skips that bound
// under ASan and TSan: freed blocks wait in ASan's quarantine, TSan's allocator keeps its own
// caches, and both map shadow memory for every touched byte, so the figures are the
// sanitizer's, not lather's. A test whose claim is a timing in microseconds skips that claim
// under TSan, which runs the code 5-15x slower; one that bounds a whole operation's time scales
// the bound (slowdown). The release run keeps every such check.
#pragma once

namespace lather::test {

// GCC says __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang says __has_feature.
#if defined(__has_feature)
#define LATHER_TEST_HAS_FEATURE(x) __has_feature(x)
#else
#define LATHER_TEST_HAS_FEATURE(x) 0
#endif

#if defined(__SANITIZE_ADDRESS__) || LATHER_TEST_HAS_FEATURE(address_sanitizer)
inline constexpr bool asan = true;
#else
inline constexpr bool asan = false;
#endif

#if defined(__SANITIZE_THREAD__) || LATHER_TEST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool tsan = true;
#else
inline constexpr bool tsan = false;
#endif

/// How much slower the instrumented code runs, at most: a test that bounds a whole operation's
/// time (linear, not quadratic) multiplies its bound by this, so the bound still tells the
/// two apart without measuring the sanitizer.
inline constexpr int slowdown = tsan ? 10 : asan ? 3 : 1;

/// The process's memory is the sanitizer's too: RSS bounds do not hold.
inline constexpr bool sanitized_memory = asan || tsan;

/// Why a memory-measuring test skips itself (GTEST_SKIP() << sanitized_memory_reason).
inline constexpr const char* sanitized_memory_reason =
    "the sanitizer's shadow memory and allocator caches are in the RSS; the release run checks "
    "this bound";

}  // namespace lather::test
