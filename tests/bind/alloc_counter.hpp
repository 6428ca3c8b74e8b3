// Counts heap allocations made through the global operator new while enabled (the test
// binary's operator new is replaced in alloc_counter.cpp).
#pragma once

namespace lather::bind::test {
void count_allocations(bool on);
long allocation_count();
void reset_allocation_count();
}  // namespace lather::bind::test
