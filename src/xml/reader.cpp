// placeholder, implemented by the XML layer work
#include "lather/xml/reader.hpp"
