// tests/fault/failing_new.hpp — a replaced global operator new that fails on request. Linking
// failing_new.cpp into a test binary replaces that binary's operator new and delete (every
// form but the over-aligned ones, as matching malloc/free pairs) with ones that count the
// allocations alive and can make the Nth allocation of the other threads throw bad_alloc.
// LATHER_FAULT_TRACE=1 prints the stack of each allocation made to fail
// (addr2line -f -C -i -e <test> <offsets>).
#pragma once

namespace lather_test {

/// The `n`th operator new from now on, on any thread but an exempt one, throws std::bad_alloc
/// (once); 0 disarms.
void fail_allocation(long n);
/// Allocations made on the calling thread never fail (the test's own thread).
void exempt_this_thread();
/// Failures injected so far.
long failures_injected();
/// Allocations made through operator new and not yet deleted.
long live_allocations();

}  // namespace lather_test
