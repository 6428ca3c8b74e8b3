// lather/wsse/openssl_cache.hpp — an opt-in, bounded, per-thread cache of OpenSSL's heap
// blocks, so that a signed call (an RSA signature and its verification) makes no call into
// malloc once warm.
//
//   int main() {
//     lather::wsse::install_openssl_cache();  // first thing: before OpenSSL allocates anything
//     ...
//   }
//
// Why: OpenSSL 3 allocates about 30 blocks per RSA operation (a fresh BN_CTX and its numbers
// per operation, inside the provider, not reachable through EVP or any public setting), and
// frees them before the operation returns. The cache keeps freed blocks of up to 16 KiB in
// per-thread lists by power-of-two size class (16 B to 16 KiB) and hands them out again; a block
// that misses, a larger one, and one freed into a full list go to malloc/free.
//
// Trade-offs (docs/wsse.md, "Speed"): it is process-wide (CRYPTO_set_mem_functions) and only
// possible before OpenSSL's first allocation; each thread that runs OpenSSL keeps at most
// ~280 KiB of cached blocks until it exits; blocks are rounded up to their class plus a 16-byte
// header; a block freed on another thread joins that thread's list. OpenSSL cleanses secrets
// (OPENSSL_clear_free) before freeing, as it does with malloc. Under AddressSanitizer it hides
// use-after-free of OpenSSL's blocks from the sanitizer: leave it off in sanitizer builds.
#pragma once

#include <cstdint>

namespace lather::wsse {

/// Route OpenSSL's allocations through the cache. True when installed (now or by an earlier
/// call); false when OpenSSL has already allocated (or other functions are installed): then
/// nothing changes.
bool install_openssl_cache() noexcept;

/// Whether the cache serves OpenSSL's allocations in this process.
bool openssl_cache_installed() noexcept;

/// Calls the cache made into malloc or realloc for OpenSSL, all threads, since installation:
/// a miss, a block over 16 KiB or its growth. Constant once warm where OpenSSL's use is.
std::uint64_t openssl_cache_system_allocations() noexcept;

/// OpenSSL's allocation requests (malloc and realloc) the calling thread made through the cache.
std::uint64_t openssl_cache_thread_requests() noexcept;

}  // namespace lather::wsse
