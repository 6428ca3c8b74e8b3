// message_type's lifetime over the three functions each message type has (allocation as
// `new T` and `delete` do it, over-aligned when T is, so either may free the other's),
// and its literal reading and writing over T's table or T's own functions.
#include "lather/service/message_type.hpp"

#include <new>
#include <stdexcept>
#include <string>

#include "lather/bind/bind.hpp"
#include "lather/bind/table_ref.hpp"

namespace lather {
namespace {

// What a size-0 message_type (empty_body()) creates: nothing, one address for every message.
char no_value;

bool over_aligned(const message_type& t) noexcept {
  return t.align > __STDCPP_DEFAULT_NEW_ALIGNMENT__;
}

void* allocate(const message_type& t) {
  return over_aligned(t) ? ::operator new(t.size, std::align_val_t(t.align))
                         : ::operator new(t.size);
}

// Unsized: clang declares the sized forms only with -fsized-deallocation (they call these).
void deallocate(const message_type& t, void* p) noexcept {
  if (over_aligned(t))
    ::operator delete(p, std::align_val_t(t.align));
  else
    ::operator delete(p);
}

}  // namespace

void* message_type::create() const {
  if (size == 0) return &no_value;
  void* p = allocate(*this);
  try {
    construct(p);
  } catch (...) {
    deallocate(*this, p);
    throw;
  }
  return p;
}

void message_type::destroy(void* p) const noexcept {
  if (size == 0 || p == nullptr) return;
  destruct(p);
  deallocate(*this, p);
}

void message_type::reset(void* p) const {
  if (size == 0) return;
  if (assign_default) return assign_default(p);
  destruct(p);
  construct(p);  // T{} does not throw (else assign_default is set)
}

void* message_type::create_moved(void* p) const {
  if (size == 0) return &no_value;
  if (move_construct == nullptr)
    throw std::logic_error("message_type::create_moved: the table of " + std::string(name) +
                           " has no move_construct (a type its generated code never moves)");
  void* q = allocate(*this);
  try {
    move_construct(q, p);
  } catch (...) {
    deallocate(*this, q);
    throw;
  }
  return q;
}

void message_type::write_content(xml::writer& w, const void* value) const {
  if (table) return bind::write_content(w, bind::table_ref::of(table()), value);
  write_content_fn(w, value);
}

bind::error_info message_type::read_content(xml::reader& r, void* value,
                                            const bind::read_options& o) const {
  return table ? bind::read_content(r, bind::table_ref::of(table()), value, o)
               : read_content_fn(r, value, o);
}

bind::error_info message_type::read(xml::reader& r, void* value,
                                    const bind::read_options& o) const {
  return table ? bind::read(r, bind::table_ref::of(table()), value, o) : read_fn(r, value, o);
}

}  // namespace lather
