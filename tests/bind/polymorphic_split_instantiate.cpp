// The one translation unit that compiles ps::Item's hierarchy (polymorphic_split.hpp).
#include "lather/bind/bind.hpp"
#include "polymorphic_split.hpp"

LATHER_BIND_POLYMORPHIC_INSTANTIATE(ps::Item);
