// A full disk while an MTOM part spills to a temporary file (mtom::options::memory_threshold),
// on the server reading a request and on the client reading a response. The process's file
// size limit (RLIMIT_FSIZE, SIGXFSZ ignored) stands in for the full disk: write() then fails
// with EFBIG where a full disk gives ENOSPC, on the same path. The server must answer a
// soap:Server fault, delete the partial file, hold no descriptor for it and go on serving
// (spilling again once there is room); the client's call must fail with the write error and
// leave no file behind.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "lather/mtom.hpp"
#include "lather/service/client.hpp"
#include "lather/service/server.hpp"

namespace disk_full_test {
constexpr std::string_view ns = "urn:lather:disk-full-test";
struct upload {
  std::uint64_t echo_bytes = 0;  // the size of the part the response carries back
  lather::mtom::attachment data;
};
struct uploadResponse {
  std::uint64_t size = 0;
  bool spilled = false;
  lather::mtom::attachment echo;
};
}  // namespace disk_full_test

template <>
struct lather::meta<disk_full_test::upload> {
  static constexpr std::string_view name = "upload", ns = disk_full_test::ns;
  static constexpr auto fields =
      std::tuple{element("echoBytes", &disk_full_test::upload::echo_bytes),
                 element("data", &disk_full_test::upload::data)};
};
template <>
struct lather::meta<disk_full_test::uploadResponse> {
  static constexpr std::string_view name = "uploadResponse", ns = disk_full_test::ns;
  static constexpr auto fields =
      std::tuple{element("size", &disk_full_test::uploadResponse::size),
                 element("spilled", &disk_full_test::uploadResponse::spilled),
                 element("echo", &disk_full_test::uploadResponse::echo)};
};

namespace {

using namespace lather;
using disk_full_test::upload;
using disk_full_test::uploadResponse;
namespace fs = std::filesystem;

constexpr std::size_t spill_at = 1000;  // memory_threshold on both sides
constexpr std::size_t big = 300'000;    // spills
constexpr rlim_t room = 64 * 1024;      // what the "disk" takes of one file

int open_descriptors() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (::readdir(d)) ++n;
    ::closedir(d);
  }
  return n;
}

std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = 11;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 16);
  }
  return v;
}

/// Whether `dir` is empty once the server has ended the call that used it (it deletes a call's
/// temporary files when the call ends, which may be just after the response went out; bounded).
bool settles_empty(const fs::path& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!fs::is_empty(dir) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  return fs::is_empty(dir);
}

/// While alive, no file of this process grows past `bytes`: a write past it fails with EFBIG.
class full_disk {
 public:
  explicit full_disk(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit r = old_;
    r.rlim_cur = bytes;
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &r), 0);
  }
  ~full_disk() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  full_disk(const full_disk&) = delete;
  full_disk& operator=(const full_disk&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int) = SIG_DFL;
};

class disk_full : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(server_dir_);
    fs::create_directories(client_dir_);
    svc_.operation("upload", [](const upload& in) {
      uploadResponse r;
      r.size = in.data.size().value_or(0);
      r.spilled = !in.data.file_path().empty();
      if (in.echo_bytes > 0) r.echo = mtom::attachment::from_bytes(pattern(in.echo_bytes));
      return r;
    });
    mtom::options o;
    o.memory_threshold = spill_at;
    o.temp_dir = server_dir_.string();
    mtom::enable(svc_, o);
    srv_.mount("/files", svc_);
    srv_.start();
    client_options co;
    co.io_timeout = std::chrono::seconds{10};
    client_.emplace("http://127.0.0.1:" + std::to_string(srv_.port()) + "/files", co);
    o.temp_dir = client_dir_.string();
    mtom::enable(*client_, o);
  }
  void TearDown() override {
    srv_.stop();
    fs::remove_all(server_dir_);
    fs::remove_all(client_dir_);
  }
  /// A part of `n` bytes up; `echo` bytes back.
  static uploadResponse send(client& c, std::size_t n, std::size_t echo = 0) {
    return c.call<uploadResponse>("upload", upload{echo, mtom::attachment::from_bytes(pattern(n))});
  }
  /// A call that spills on both sides succeeds and leaves no temporary file once it is done.
  void expect_spilling_works(client& c) {
    auto r = send(c, big, big);
    EXPECT_TRUE(r.spilled);
    EXPECT_EQ(r.size, big);
    EXPECT_FALSE(r.echo.file_path().empty());
    EXPECT_EQ(r.echo.bytes(), pattern(big));
    r = {};
    EXPECT_TRUE(settles_empty(server_dir_));
    EXPECT_TRUE(fs::is_empty(client_dir_));
  }

  const fs::path server_dir_ =
      fs::temp_directory_path() / ("lather-disk-full-server-" + std::to_string(::getpid()));
  const fs::path client_dir_ =
      fs::temp_directory_path() / ("lather-disk-full-client-" + std::to_string(::getpid()));
  std::optional<client> client_;  // memory_threshold as the server's, its own temp_dir
  service svc_{"Files", std::string(disk_full_test::ns)};
  std::mutex logged_mutex_;
  std::string logged_;  // what error_log heard
  server srv_{{.address = "127.0.0.1", .port = 0}, {.error_log = [this](const call_error& e) {
                std::lock_guard lock{logged_mutex_};
                logged_.append(e.message).append("\n");
              }}};
};

TEST_F(disk_full, SpillingRequestGetsAServerFaultAndTheServerGoesOn) {
  client& c = *client_;
  expect_spilling_works(c);  // also opens what is opened once (the pooled connection)
  const int descriptors = open_descriptors();
  {
    full_disk full{room};
    try {
      send(c, big);
      ADD_FAILURE() << "a part that cannot be stored was accepted";
    } catch (const soap::fault_error& e) {
      EXPECT_EQ(e.get().code, soap::fault_code::receiver) << e.what();  // not the client's fault
    }
    {
      std::lock_guard lock{logged_mutex_};  // the operator hears why
      EXPECT_NE(logged_.find("cannot write " + server_dir_.string()), std::string::npos) << logged_;
    }
    EXPECT_TRUE(settles_empty(server_dir_));  // the partial file is gone
    // A part that stays in memory is served while the disk is still full.
    const auto r = send(c, spill_at / 2);
    EXPECT_FALSE(r.spilled);
    EXPECT_EQ(r.size, spill_at / 2);
  }
  expect_spilling_works(c);  // room again: spills as before
  EXPECT_EQ(open_descriptors(), descriptors);
}

TEST_F(disk_full, SpillingResponseFailsTheClientCallAndLeavesNoFile) {
  client& c = *client_;
  expect_spilling_works(c);
  const int descriptors = open_descriptors();
  {
    full_disk full{room};
    try {
      send(c, spill_at / 2, big);
      ADD_FAILURE() << "a response part that cannot be stored was returned";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), std::errc::file_too_large) << e.what();
    }
    EXPECT_TRUE(fs::is_empty(client_dir_));
  }
  expect_spilling_works(c);
  EXPECT_EQ(open_descriptors(), descriptors);
}

}  // namespace
