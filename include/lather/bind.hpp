// lather/bind.hpp — the binding layer: lather::meta<T> metadata, XSD simple types, read/write of
// bound values. One include for the whole layer; link lather::bind.
#pragma once

#include "lather/bind/any_attributes.hpp"
#include "lather/bind/bind.hpp"
#include "lather/bind/describe.hpp"
#include "lather/bind/error.hpp"
#include "lather/bind/extern.hpp"
#include "lather/bind/facets.hpp"
#include "lather/bind/meta.hpp"
#include "lather/bind/polymorphic.hpp"
#include "lather/bind/table.hpp"
#include "lather/bind/table_ref.hpp"
#include "lather/bind/unknown.hpp"
#include "lather/bind/xsd.hpp"
