// The interop matrix: every peer client against every peer server, for each contract variant
// the two of them speak.  Each test starts the server on a free loopback port, polls the port
// until it accepts, runs the client, parses its "PASS|FAIL <check> <detail>" lines, stops the
// server by PID, records the results and regenerates docs/interop.md from all recorded results.
// A failure passes the test only when it is a documented peer bug (kKnownPeerBugs).
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

const fs::path kSourceDir = LATHER_SOURCE_DIR;
const fs::path kBinDir = LATHER_BIN_DIR;
const fs::path kPeersDir = kSourceDir / "tests/interop/peers";
const fs::path kResultsDir = kBinDir.parent_path() / "interop-results";
const fs::path kDocPath = kSourceDir / "docs/interop.md";
constexpr const char* kPython = "/usr/bin/python3";
constexpr const char* kPhp = "/usr/bin/php";

// ---------------------------------------------------------------------------------------
// The peers

enum class Variant { literal11, literal12, encoded };

const char* variant_id(Variant v) {
  switch (v) {
    case Variant::literal11:
      return "literal11";
    case Variant::literal12:
      return "literal12";
    case Variant::encoded:
      break;
  }
  return "encoded";
}

const char* variant_title(Variant v) {
  switch (v) {
    case Variant::literal11:
      return "document/literal, SOAP 1.1 (interop.wsdl)";
    case Variant::literal12:
      return "document/literal, SOAP 1.2 (interop.wsdl port type, soap12 binding)";
    case Variant::encoded:
      break;
  }
  return "RPC/encoded, SOAP 1.1 (tests/interop/interop-encoded.wsdl)";
}

struct ServerPeer {
  std::string name;
  std::vector<std::string> argv;           // "{port}" is replaced by the port
  std::map<Variant, std::string> paths;    // endpoint path per variant spoken
  std::set<Variant> serves_wsdl;           // variants whose WSDL is served at <path>?wsdl
};

struct ClientPeer {
  std::string name;
  // argv per variant spoken; "{url}" is replaced by the endpoint, "{wsdl?}" expands to
  // "--wsdl <url>?wsdl" when the server serves that WSDL and to nothing otherwise.
  std::map<Variant, std::vector<std::string>> argv;
};

std::string bin(const char* name) { return (kBinDir / name).string(); }
bool built(const char* name) { return fs::exists(kBinDir / name); }

std::vector<ServerPeer> servers() {
  std::vector<ServerPeer> list;
  list.push_back({"spyne",
                  {kPython, (kPeersDir / "spyne_server.py").string(), "{port}"},
                  {{Variant::literal11, "/interop"}, {Variant::literal12, "/interop12"}},
                  {Variant::literal11, Variant::literal12}});
  list.push_back({"php",
                  {kPhp, "-d", "post_max_size=64M", "-d", "memory_limit=512M", "-S",
                   "127.0.0.1:{port}", (kPeersDir / "php/router.php").string()},
                  {{Variant::literal11, "/interop"},
                   {Variant::literal12, "/interop"},
                   {Variant::encoded, "/interop/encoded"}},
                  {Variant::literal11, Variant::encoded}});
  if (built("gsoap-interop-server"))
    list.push_back({"gsoap",
                    {bin("gsoap-interop-server"), "--port", "{port}"},
                    {{Variant::literal11, "/interop"}, {Variant::literal12, "/interop"}},
                    {}});
  if (built("gsoap-interop-encoded-server"))
    list.push_back({"gsoap-enc",
                    {bin("gsoap-interop-encoded-server"), "--port", "{port}"},
                    {{Variant::encoded, "/interop/encoded"}},
                    {}});
  if (built("lather-interop-server"))
    list.push_back({"lather",
                    {bin("lather-interop-server"), "--port", "{port}"},
                    {{Variant::literal11, "/interop"},
                     {Variant::literal12, "/interop"},
                     {Variant::encoded, "/interop/encoded"}},
                    {Variant::literal11, Variant::literal12, Variant::encoded}});
  return list;
}

std::vector<ClientPeer> clients() {
  const std::string zeep = (kPeersDir / "zeep_client.py").string();
  const std::string php = (kPeersDir / "php/client.php").string();
  std::vector<ClientPeer> list;
  list.push_back({"zeep",
                  {{Variant::literal11, {kPython, zeep, "--url", "{url}", "{wsdl?}"}},
                   {Variant::literal12, {kPython, zeep, "--url", "{url}", "{wsdl?}", "--soap12"}}}});
  list.push_back({"php",
                  {{Variant::literal11, {kPhp, php, "--url", "{url}", "{wsdl?}"}},
                   {Variant::literal12, {kPhp, php, "--url", "{url}", "--soap12"}},
                   {Variant::encoded, {kPhp, php, "--url", "{url}", "--encoded"}}}});
  if (built("gsoap-interop-client")) {
    ClientPeer gsoap{"gsoap",
                     {{Variant::literal11, {bin("gsoap-interop-client"), "--url", "{url}"}},
                      {Variant::literal12,
                       {bin("gsoap-interop-client"), "--url", "{url}", "--soap12"}}}};
    if (built("gsoap-interop-encoded-client"))
      gsoap.argv[Variant::encoded] = {bin("gsoap-interop-encoded-client"), "--url", "{url}"};
    list.push_back(gsoap);
  }
  if (built("lather-interop-client")) {
    const std::string lather = bin("lather-interop-client");
    list.push_back({"lather",
                    {{Variant::literal11, {lather, "--url", "{url}"}},
                     {Variant::literal12, {lather, "--url", "{url}", "--soap12"}},
                     {Variant::encoded, {lather, "--url", "{url}", "--encoded"}}}});
  }
  return list;
}

// ---------------------------------------------------------------------------------------
// Failures that are the peers' own bugs, with the evidence.  "*" matches anything.

struct KnownPeerBug {
  const char* client;
  const char* server;
  const char* variant;
  const char* check;
  const char* evidence;
};

constexpr KnownPeerBug kKnownPeerBugs[] = {
    {"*", "php", "*", "echoStruct.negzero",
     "PHP ext/soap (8.2) reads the xsd:double `-0` as the integer 0 (is_numeric_string gives a "
     "long), losing the sign: the PHP server echoes `0` to clients that write `-0` (PHP, "
     "gSOAP); `-0.0` (zeep, spyne) survives."},
    {"php", "*", "*", "echoStruct.negzero",
     "the same PHP bug on the client side: an answer of `-0` (gSOAP) reads as 0."},
    {"php", "spyne", "*", "echoStruct.nan",
     "PHP ext/soap writes NaN as `NAN`, not the XSD lexical form `NaN`; spyne validates against "
     "the schema (lxml) and answers Client.SchemaValidationError."},
    {"*", "gsoap", "literal12", "addNumbers.fault",
     "gSOAP 2.8.124 answers a SOAP 1.2 request to a service generated from a SOAP 1.1 WSDL with "
     "a SOAP 1.2 envelope holding a SOAP 1.1-shaped Fault (`faultcode`/`faultstring` instead of "
     "`Code/Value`, `Reason/Text`): soap->version is still 1 when the handler raises the fault."},
};

bool matches(const char* pattern, const std::string& value) {
  return std::string_view(pattern) == "*" || value == pattern;
}

const KnownPeerBug* known_bug(const std::string& client, const std::string& server,
                              Variant variant, const std::string& check) {
  for (const KnownPeerBug& bug : kKnownPeerBugs)
    if (matches(bug.client, client) && matches(bug.server, server) &&
        matches(bug.variant, variant_id(variant)) && check == bug.check)
      return &bug;
  return nullptr;
}

// ---------------------------------------------------------------------------------------
// Processes: started by us, stopped by us, by PID.

class Process {
 public:
  // stdout goes to a pipe (read_output) or to `log`; stderr always goes to `log`.
  Process(const std::vector<std::string>& argv, const fs::path& log, bool capture_stdout) {
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    int out_pipe[2] = {-1, -1};
    if (capture_stdout && pipe2(out_pipe, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    if (capture_stdout)
      posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    else
      posix_spawn_file_actions_adddup2(&actions, 2, 1);
    // Its own process group, so a stop reaches whatever the peer itself started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    if (posix_spawn(&pid_, args[0], &actions, &attr, args.data(), environ) != 0) pid_ = -1;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (capture_stdout) {
      close(out_pipe[1]);
      stdout_fd_ = out_pipe[0];
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;
  ~Process() {
    stop();
    if (stdout_fd_ >= 0) close(stdout_fd_);
  }

  bool started() const { return pid_ > 0; }

  bool running() {
    if (pid_ <= 0 || exited_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) exited_ = true;
    return !exited_;
  }

  // Reads stdout until EOF or the deadline; false on timeout.
  bool read_output(std::string& out, Clock::time_point deadline) {
    char buffer[65536];
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                              Clock::now());
      if (left <= 0ms) return false;
      pollfd fd{stdout_fd_, POLLIN, 0};
      const int ready = poll(&fd, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
      const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return true;
      out.append(buffer, static_cast<std::size_t>(n));
    }
  }

  // Waits for exit up to `grace`, then SIGKILLs the process group.
  void stop(std::chrono::milliseconds grace = 3000ms) {
    if (pid_ <= 0 || exited_) return;
    kill(-pid_, SIGTERM);
    const auto deadline = Clock::now() + grace;
    while (running() && Clock::now() < deadline) wait_a_little();
    if (running()) {
      kill(-pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
      exited_ = true;
    }
  }

 private:
  // Polling interval while waiting for a child to exit or a port to open.
  static void wait_a_little() { std::this_thread::sleep_for(20ms); }
  friend bool wait_for_port(Process&, int, Clock::time_point);

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  bool exited_ = false;
};

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

bool port_accepts(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

// Polls the port until the server accepts; false if the server died or the deadline passed.
bool wait_for_port(Process& server, int port, Clock::time_point deadline) {
  while (Clock::now() < deadline) {
    if (!server.running()) return false;
    if (port_accepts(port)) return true;
    Process::wait_a_little();
  }
  return false;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// ---------------------------------------------------------------------------------------
// Results: one fragment file per (variant, client, server); docs/interop.md is rebuilt from
// all fragments under a lock, so concurrent tests (ctest -j) never lose each other's rows.

struct CheckResult {
  std::string check;
  std::string outcome;  // PASS, FAIL, KNOWN
  std::string detail;
};

struct PairResults {
  std::string variant, client, server;
  std::vector<CheckResult> checks;
};

std::string fragment_name(const std::string& variant, const std::string& client,
                          const std::string& server) {
  return variant + "__" + client + "__" + server + ".txt";
}

std::vector<PairResults> load_fragments() {
  std::vector<PairResults> all;
  if (!fs::exists(kResultsDir)) return all;
  for (const auto& entry : fs::directory_iterator(kResultsDir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".txt") continue;
    const auto first = name.find("__");
    const auto second = name.find("__", first + 2);
    if (first == std::string::npos || second == std::string::npos) continue;
    PairResults pair{name.substr(0, first), name.substr(first + 2, second - first - 2),
                     name.substr(second + 2, name.size() - second - 2 - 4), {}};
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      CheckResult result;
      fields >> result.outcome >> result.check;
      std::getline(fields >> std::ws, result.detail);
      if (!result.check.empty()) pair.checks.push_back(result);
    }
    all.push_back(std::move(pair));
  }
  std::sort(all.begin(), all.end(), [](const PairResults& a, const PairResults& b) {
    return std::tie(a.variant, a.client, a.server) < std::tie(b.variant, b.client, b.server);
  });
  return all;
}

std::string cell(const std::string& outcome) {
  if (outcome == "PASS") return "pass";
  if (outcome == "KNOWN") return "**known**";
  return "**FAIL**";
}

std::string escape_cell(std::string text) {
  text = replace_all(text, "|", "\\|");
  return replace_all(text, "`", "'");
}

void write_doc(const std::vector<PairResults>& all) {
  std::ostringstream doc;
  doc << "# Interoperability with real SOAP stacks\n\n"
         "<!-- Generated by tests/interop/interop_matrix_test.cpp from its last run; do not edit"
         " by hand. -->\n\n"
         "This page is written by the interop harness (`ctest -L interop`, or "
         "`build/bin/interop_matrix_test`): each row below is a real run of a peer client "
         "against a peer server on loopback.  Peers: **zeep** 4.2 client and **spyne** 2.14 "
         "server (python3-zeep, python3-spyne), **PHP** 8.2 ext/soap `SoapClient` and "
         "`SoapServer` (`php -S`), **gSOAP** 2.8.124 client and server generated at build time "
         "(wsdl2h + soapcpp2), and **lather**'s own `lather-interop-server` / "
         "`lather-interop-client` when they are built.  The checks are the calls of "
         "`shared/interop/VECTORS.md` plus: `echoString.nonbmp` (characters outside the BMP), "
         "`echoString.5mb` (5 Mi characters with markup to escape), `echoStruct.zoned` "
         "(dateTime 14:34:56.125+02:00, compared as an instant), and the double extremes "
         "`dblmax`, `dbldenorm` (5e-324), `negzero` (sign kept), `inf` (-INF), `nan`.\n\n"
         "`pass`: the answer matched by the VECTORS.md comparison rules.  **known**: a failure "
         "caused by a documented peer bug (listed at the end with the evidence); the harness "
         "accepts those and nothing else.  **FAIL**: anything else, which fails the test.\n\n";

  doc << "## Summary\n\n| variant | client → server | pass | known peer bug | fail |\n"
         "|---|---|---|---|---|\n";
  for (const PairResults& pair : all) {
    int pass = 0, known = 0, fail = 0;
    for (const CheckResult& r : pair.checks)
      (r.outcome == "PASS" ? pass : r.outcome == "KNOWN" ? known : fail)++;
    doc << "| " << pair.variant << " | " << pair.client << " → " << pair.server << " | " << pass
        << " | " << known << " | " << fail << " |\n";
  }

  for (Variant variant : {Variant::literal11, Variant::literal12, Variant::encoded}) {
    std::vector<const PairResults*> pairs;
    std::vector<std::string> checks;
    for (const PairResults& pair : all) {
      if (pair.variant != variant_id(variant)) continue;
      pairs.push_back(&pair);
      for (const CheckResult& r : pair.checks)
        if (std::find(checks.begin(), checks.end(), r.check) == checks.end())
          checks.push_back(r.check);
    }
    if (pairs.empty()) continue;
    doc << "\n## " << variant_id(variant) << ": " << variant_title(variant) << "\n\n| check |";
    for (const PairResults* pair : pairs) doc << ' ' << pair->client << " → " << pair->server << " |";
    doc << "\n|---|";
    for (std::size_t i = 0; i < pairs.size(); ++i) doc << "---|";
    doc << '\n';
    for (const std::string& check : checks) {
      doc << "| " << check << " |";
      for (const PairResults* pair : pairs) {
        auto it = std::find_if(pair->checks.begin(), pair->checks.end(),
                               [&](const CheckResult& r) { return r.check == check; });
        doc << ' ' << (it == pair->checks.end() ? std::string("-") : cell(it->outcome)) << " |";
      }
      doc << '\n';
    }
  }

  doc << "\n## Failures seen in the last run\n\n";
  bool any = false;
  for (const PairResults& pair : all)
    for (const CheckResult& r : pair.checks)
      if (r.outcome != "PASS") {
        any = true;
        doc << "- " << (r.outcome == "KNOWN" ? "known" : "**FAIL**") << ": " << pair.variant
            << ", " << pair.client << " → " << pair.server << ", `" << r.check
            << "`: " << escape_cell(r.detail) << '\n';
      }
  if (!any) doc << "None.\n";

  doc << "\n## Known peer bugs (accepted by the harness)\n\n"
         "| client | server | variant | check | evidence |\n|---|---|---|---|---|\n";
  for (const KnownPeerBug& bug : kKnownPeerBugs)
    doc << "| " << bug.client << " | " << bug.server << " | " << bug.variant << " | "
        << bug.check << " | " << bug.evidence << " |\n";

  doc << "\n## Peer settings and workarounds (in the peer scripts, not in lather)\n\n"
         "- zeep writes xsd:double with Python's `str()`, i.e. `inf`/`-inf`/`nan`, which are not "
         "XSD lexical forms; the zeep client passes `-INF`/`NaN` as text instead "
         "(tests/interop/peers/zeep_client.py, `zeep_safe`).\n"
         "- zeep maps both `<result/>` and a nil or absent element to `None`; the zeep client "
         "checks the received envelope for the empty-string and nil-note cases.\n"
         "- PHP ext/soap prints doubles with the `precision` ini setting (14 digits by default, "
         "which changes 1.7976931348623157e308); both PHP peers set `precision=17`.  "
         "`php -S` runs with `post_max_size=64M` for the 5 MB case, and the client uses "
         "`SOAP_SINGLE_ELEMENT_ARRAYS` so a one-element array stays an array.\n"
         "- PHP's `SoapFault::faultcode` is the raw text with the sender's prefix; the PHP "
         "client resolves it against the received envelope.\n"
         "- spyne's default 2 MB request limit is raised to 64 MB for the 5 MB case; spyne "
         "serves SOAP 1.2 on a separate path (`/interop12`).\n"
         "- gSOAP maps xsd:dateTime to `struct timeval` (custom/struct_timeval) so fractional "
         "seconds survive; the default `time_t` drops them.  Its SOAP 1.2 client swaps the "
         "envelope namespaces in its namespace table.\n";

  fs::create_directories(kDocPath.parent_path());
  const fs::path tmp = kDocPath.string() + ".tmp." + std::to_string(getpid());
  std::ofstream(tmp) << doc.str();
  fs::rename(tmp, kDocPath);
}

void record(const std::string& variant, const std::string& client, const std::string& server,
            const std::vector<CheckResult>& results) {
  fs::create_directories(kResultsDir);
  const int lock = open((kResultsDir / ".lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  flock(lock, LOCK_EX);
  const fs::path path = kResultsDir / fragment_name(variant, client, server);
  {
    std::ofstream out(path.string() + ".tmp");
    for (const CheckResult& r : results) out << r.outcome << ' ' << r.check << ' ' << r.detail << '\n';
  }
  fs::rename(path.string() + ".tmp", path);
  write_doc(load_fragments());
  flock(lock, LOCK_UN);
  close(lock);
}

// ---------------------------------------------------------------------------------------
// The test: one per (variant, client, server).

struct Pair {
  Variant variant;
  ClientPeer client;
  ServerPeer server;
};

std::vector<Pair> all_pairs() {
  std::vector<Pair> pairs;
  for (Variant variant : {Variant::literal11, Variant::literal12, Variant::encoded})
    for (const ClientPeer& client : clients())
      for (const ServerPeer& server : servers())
        if (client.argv.count(variant) && server.paths.count(variant))
          pairs.push_back({variant, client, server});
  return pairs;
}

void PrintTo(const Pair& pair, std::ostream* out) {
  *out << variant_id(pair.variant) << ' ' << pair.client.name << " -> " << pair.server.name;
}

std::string pair_name(const testing::TestParamInfo<Pair>& info) {
  std::string name = std::string(variant_id(info.param.variant)) + "_" + info.param.client.name +
                     "_to_" + info.param.server.name;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class InteropMatrix : public testing::TestWithParam<Pair> {};

TEST_P(InteropMatrix, AllChecksPassOrAreKnownPeerBugs) {
  const Pair& pair = GetParam();
  if (!fs::exists(kPython) || !fs::exists(kPhp)) GTEST_SKIP() << "python3 or php missing";
  fs::create_directories(kResultsDir);
  const std::string label = std::string(variant_id(pair.variant)) + "__" + pair.client.name +
                            "__" + pair.server.name;
  const fs::path log = kResultsDir / (label + ".log");
  fs::remove(log);

  // A free port can be taken between our probe and the server's bind: retry a few times.
  std::optional<Process> server;
  int port = -1;
  for (int attempt = 0; attempt < 3 && !server; ++attempt) {
    port = free_port();
    ASSERT_GT(port, 0);
    std::vector<std::string> argv;
    for (const std::string& arg : pair.server.argv)
      argv.push_back(replace_all(arg, "{port}", std::to_string(port)));
    server.emplace(argv, log, false);
    ASSERT_TRUE(server->started()) << "cannot start " << pair.server.name;
    if (!wait_for_port(*server, port, Clock::now() + 20s)) server.reset();
  }
  ASSERT_TRUE(server) << pair.server.name << " never accepted connections; see " << log;

  const std::string url =
      "http://127.0.0.1:" + std::to_string(port) + pair.server.paths.at(pair.variant);
  std::vector<std::string> argv;
  for (const std::string& arg : pair.client.argv.at(pair.variant)) {
    if (arg == "{wsdl?}") {
      if (pair.server.serves_wsdl.count(pair.variant)) {
        argv.push_back("--wsdl");
        argv.push_back(url + "?wsdl");
      }
      continue;
    }
    argv.push_back(replace_all(arg, "{url}", url));
  }
  Process client(argv, log, true);
  ASSERT_TRUE(client.started()) << "cannot start " << pair.client.name;
  std::string output;
  const bool finished = client.read_output(output, Clock::now() + 150s);
  client.stop();
  server->stop();
  ASSERT_TRUE(finished) << pair.client.name << " timed out; see " << log;

  std::vector<CheckResult> results;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    CheckResult result;
    fields >> result.outcome >> result.check;
    std::getline(fields >> std::ws, result.detail);
    if (result.outcome != "PASS" && result.outcome != "FAIL") continue;
    if (result.outcome == "FAIL" &&
        known_bug(pair.client.name, pair.server.name, pair.variant, result.check))
      result.outcome = "KNOWN";
    results.push_back(result);
  }
  record(variant_id(pair.variant), pair.client.name, pair.server.name, results);

  EXPECT_GE(results.size(), 14u) << "client printed too few checks; output:\n"
                                 << output << "\nsee " << log;
  for (const CheckResult& r : results)
    EXPECT_NE(r.outcome, "FAIL") << r.check << ": " << r.detail;
}

INSTANTIATE_TEST_SUITE_P(Peers, InteropMatrix, testing::ValuesIn(all_pairs()), pair_name);

}  // namespace
