// tests/support/sanitizer.hpp — whether this test binary is built with AddressSanitizer.
//
// A test that measures the process's memory (peak RSS, memory given back) skips itself under
// ASan: freed blocks wait in ASan's quarantine and every touched byte has shadow memory, so
// the figures are ASan's, not lather's. The release run keeps the bound.
#pragma once

namespace lather::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool asan = true;
#else
inline constexpr bool asan = false;
#endif
#else
inline constexpr bool asan = false;
#endif

/// Why a memory-measuring test skips itself under ASan (GTEST_SKIP() << asan_memory_reason).
inline constexpr const char* asan_memory_reason =
    "ASan's quarantine and shadow memory are in the RSS; the release run checks this bound";

}  // namespace lather::test
