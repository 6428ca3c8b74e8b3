// libFuzzer target fuzz_wsdl_reader: the WSDL/XSD reader (lather::wsdl::load) on one document.
// load() reads files, so each input is written to a file of its own private directory:
// relative imports and includes find nothing there (or the input itself), the standard
// schemas come from the library, and nothing is fetched from the network. The directory goes
// when the process ends. Refusals must be wsdl::error; anything else escaping, a crash, a hang
// or a sanitizer report is a finding.
// A model that loads has its components listed (services, port types, messages, bindings,
// schemas).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "lather/wsdl/load.hpp"
#include "lather/wsdl/model.hpp"

namespace {

// This process's directory, removed with its input when the process exits (libFuzzer's runs
// end in exit(), the replay's by returning from main; a crash or a timeout leaves it).
struct scratch_dir {
  std::string dir;
  scratch_dir()
      : dir((std::filesystem::temp_directory_path() / "lather-wsdl-fuzz-XXXXXX").string()) {
    if (!::mkdtemp(dir.data())) std::abort();
  }
  ~scratch_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const scratch_dir scratch;
  static const std::string path = scratch.dir + "/input.wsdl";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto model = lather::wsdl::load({path});
    std::size_t seen = 0;
    for (const auto* s : model->services()) seen += s->ports.size();
    for (const auto* p : model->port_types())
      for (const auto& op : p->operations) seen += op.faults.size() + op.parameter_order.size();
    for (const auto* m : model->messages()) seen += m->parts.size();
    for (const auto* b : model->bindings()) seen += b->operations.size();
    for (const auto* s : model->schemas()) seen += s->elements.size() + s->types.size();
    if (seen == SIZE_MAX) std::abort();  // keeps the walk
  } catch (const lather::wsdl::error&) {
  }
  return 0;
}
