// libFuzzer target fuzz_soap_envelope: a whole SOAP message through the envelope reader
// (versions, headers with mustUnderstand/roles/relay, faults) and, for the Body's first child,
// the RPC/encoded decoder on the fetch contract's multi-ref graph (href/id, forward and
// backward references, shared values and cycles, arrays, xsi:nil). Refusals must be
// soap::fault_error (or the XML/binding errors behind them); anything else escaping, a crash,
// a leak (a cycle left unbroken) or a sanitizer report is a finding. A graph that decodes
// must encode, decode again and encode to the same bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "lather/bind/error.hpp"
#include "lather/perf/fetch_graph.hpp"
#include "lather/soap/encoded.hpp"
#include "lather/soap/envelope.hpp"
#include "lather/soap/fault.hpp"
#include "lather/soap/style.hpp"
#include "lather/xml/error.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

using namespace lather;
using perf::Setting;

/// The message's graph (part "return"; other parts skipped), or null when its Body holds
/// none. Throws what the envelope reader and decoder throw.
std::shared_ptr<Setting> decode(std::string_view doc, bool understand_headers) {
  xml::reader r;
  r.reset(doc);
  soap::envelope_options o;
  o.collect_relayable = true;
  o.roles = {"urn:role"};
  if (understand_headers)
    o.on_header = [](const soap::header_info& h, xml::reader& hr) {
      if (h.local.size() % 2) return soap::header_use::understood;
      hr.skip_element();
      return soap::header_use::consumed;
    };
  soap::envelope_reader env{r, o};
  env.begin();
  std::shared_ptr<Setting> out;
  if (env.at_body_element() && env.at_fault()) {
    soap::read_fault(r, env.ver(), env.body_namespaces());
    env.next_body_element();
  } else if (env.at_body_element()) {
    soap::decoder dec{r, env.body_namespaces()};
    soap::rpc_reader parts{r};
    // A failed decode breaks its own cycles (soap::decoder); a finished one is ours to free.
    while (parts.next()) {
      if (parts.name() == "return" && !out)
        dec.read(out);
      else
        r.skip_element();
    }
    dec.read_trailing(env);
  }
  try {
    env.finish();
  } catch (...) {
    perf::release_graph(out);
    throw;
  }
  return out;
}

std::string encode(const std::shared_ptr<Setting>& root) {
  xml::output out;
  xml::writer w{out};
  soap::envelope_writer env{w, soap::version::soap11};
  env.begin({.encoded = true, .namespaces = {{"tns", std::string(perf::fetch_ns)}}});
  env.begin_body();
  soap::encoder enc{w};
  enc.count(root);
  soap::write_rpc_start(w, soap::version::soap11, soap::style::rpc_encoded, perf::fetch_ns,
                        "fetchResponse");
  enc.write("", "return", root);
  w.end_element();
  enc.write_independents();
  env.end();
  return std::string(out.view());
}

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b = {}) {
  std::fprintf(stderr, "%s\n--- first\n%s\n--- second\n%s\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<Setting> root;
  try {
    root = decode(input, size % 2 == 0);
  } catch (const soap::fault_error&) {
    return 0;
  } catch (const xml::error&) {
    return 0;
  } catch (const bind::error&) {
    return 0;
  }
  if (!root) return 0;
  const std::string first = encode(root);
  perf::release_graph(root);
  std::shared_ptr<Setting> again;
  try {
    again = decode(first, true);
  } catch (const std::exception& e) {
    fail(e.what(), first);
  }
  const std::string second = encode(again);
  perf::release_graph(again);
  if (first != second) fail("re-encoded graph differs", first, second);
  return 0;
}
