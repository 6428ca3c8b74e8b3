// libFuzzer target fuzz_bind_roundtrip: the binding on the CXF performance types. The root
// element's local name picks the type (echoComplexTypeDoc by default); whatever the binding
// accepts must serialize, read back, and serialize again to the same bytes (a value that does
// not survive its own round trip, e.g. a lost field or a float printed imprecisely, aborts).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lather/bind/bind.hpp"
#include "lather/perf/types.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using namespace lather;

[[noreturn]] void fail(std::string_view what, std::string_view a, std::string_view b = {}) {
  std::fprintf(stderr, "round trip: %.*s\n--- first\n%.*s\n--- second\n%.*s\n", int(what.size()),
               what.data(), int(a.size()), a.data(), int(b.size()), b.data());
  std::abort();
}

template <class T>
std::string serialize(std::string_view local, const T& value) {
  xml::output out;
  xml::writer w{out};
  bind::write(w, perf::types_ns, local, value);
  w.end_document();
  return std::string(out.view());
}

template <class T>
bool deserialize(std::string_view doc, T& value, bind::error_info* why = nullptr) {
  xml::reader r;
  r.reset(doc);
  if (r.next() != xml::token::start_element) return false;
  bind::error_info e = bind::read(r, value);
  if (why) *why = e;
  return !e;
}

template <class T>
void round_trip(std::string_view input, std::string_view local) {
  T value{};
  if (!deserialize(input, value)) return;  // refused: fine, as long as nothing broke
  const std::string first = serialize(local, value);
  T again{};
  bind::error_info e;
  if (!deserialize(first, again, &e)) fail("its own output refused: " + e.message, first);
  const std::string second = serialize(local, again);
  if (first != second) fail("serializations differ", first, second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  xml::reader probe;
  probe.reset(input);
  if (probe.next() != xml::token::start_element) return 0;
  const std::string_view local = probe.local_name();
  if (local == "echoComplexTypeDocResponse")
    round_trip<perf::echoComplexTypeDocResponse>(input, local);
  else if (local == "echoStringDoc")
    round_trip<perf::echoStringDoc>(input, local);
  else if (local == "echoBase64Doc")
    round_trip<perf::echoBase64Doc>(input, local);
  else if (local == "NestedComplexType" || local == "item")
    round_trip<perf::NestedComplexType>(input, local);
  else
    round_trip<perf::echoComplexTypeDoc>(input, "echoComplexTypeDoc");
  return 0;
}
