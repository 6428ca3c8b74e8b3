// Heap allocations counted at the malloc level (malloc/calloc/realloc replaced in alloc_hook.cpp).
#pragma once

namespace lather::bench {
/// Allocations since the program started (all threads).
long allocations() noexcept;
}  // namespace lather::bench
