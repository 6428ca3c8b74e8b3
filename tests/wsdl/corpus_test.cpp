// Every service of the WSDL corpus (shared/wsdl-corpus/manifest.json) loads offline, and the
// SOAP-bound operations per service (PortType.Operation, as the corpus checker counts them)
// are exactly the manifest's.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/paths.hpp"
#include "lather/wsdl/load.hpp"

namespace {

struct corpus_service {
  std::string name;
  std::vector<std::string> entries;
  long operations = -1;
  bool catalog = false;
};

std::string corpus_dir() {
  return lather::test::wsdl_corpus;
}

// manifest.json is an array of flat objects; this reads just the four fields the test needs.
std::vector<corpus_service> read_manifest() {
  std::ifstream in(corpus_dir() + "/manifest.json");
  if (!in) return {};
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<corpus_service> out;
  auto string_after = [&](std::size_t& pos) {
    std::size_t a = text.find('"', pos);
    std::size_t b = text.find('"', a + 1);
    pos = b + 1;
    return text.substr(a + 1, b - a - 1);
  };
  std::size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string::npos) {
    std::size_t end = text.find('}', pos);
    corpus_service s;
    auto field = [&](const char* key) {
      std::size_t k = text.find(std::string("\"") + key + "\"", pos);
      return k < end ? k + std::strlen(key) + 3 : std::string::npos;
    };
    if (std::size_t k = field("name"); k != std::string::npos) s.name = string_after(k);
    if (std::size_t k = field("entries"); k != std::string::npos) {
      std::size_t close = text.find(']', k);
      std::size_t q = text.find('"', k);
      while (q < close) {
        s.entries.push_back(string_after(q));
        q = text.find('"', q);
      }
    }
    if (std::size_t k = field("operations"); k != std::string::npos)
      s.operations = std::strtol(text.c_str() + text.find(':', k - 2) + 1, nullptr, 10);
    if (std::size_t k = field("catalog"); k != std::string::npos)
      s.catalog = text.compare(text.find(':', k - 2) + 1, 5, " true") == 0;
    out.push_back(std::move(s));
    pos = end + 1;
  }
  return out;
}

std::size_t soap_operations(const lather::wsdl::model& m) {
  std::set<std::string> keys;
  for (const lather::wsdl::binding* b : m.bindings()) {
    if (b->version == lather::wsdl::soap_version::none) continue;
    for (const lather::wsdl::binding_operation& op : b->operations)
      keys.insert(b->port_type->name.local + "." + op.name);
  }
  return keys.size();
}

class Corpus : public testing::TestWithParam<corpus_service> {};

TEST_P(Corpus, LoadsOfflineWithTheManifestsOperations) {
  const corpus_service& s = GetParam();
  if (s.name.empty()) GTEST_SKIP() << "no WSDL corpus at " << corpus_dir();
  const std::string dir = corpus_dir() + "/" + s.name;
  lather::wsdl::load_options o;
  if (s.catalog) o.catalogs.push_back(dir + "/catalog.xml");
  std::size_t ops = 0;
  auto start = std::chrono::steady_clock::now();
  for (const std::string& e : s.entries) {
    std::unique_ptr<const lather::wsdl::model> m;
    try {
      m = lather::wsdl::load({dir + "/" + e}, o);
    } catch (const lather::wsdl::error& ex) {
      FAIL() << ex.what();
    }
    ops += soap_operations(*m);
  }
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  EXPECT_EQ(static_cast<long>(ops), s.operations);
  std::printf("%s: %zu operations, loaded in %.1f ms\n", s.name.c_str(), ops, ms.count());
}

std::vector<corpus_service> params() {
  std::vector<corpus_service> v = read_manifest();
  if (v.empty()) v.push_back({});  // one test that skips
  return v;
}

std::string param_name(const testing::TestParamInfo<corpus_service>& i) {
  std::string n = i.param.name.empty() ? "absent" : i.param.name;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Wsdl, Corpus, testing::ValuesIn(params()), param_name);

}  // namespace
