// The command line of every lather tool and benchmark peer, on CLI11, so that all behave alike:
// --help (or -h) prints the usage on stdout and exits 0 before anything starts; a usage error
// (an unknown option, a missing or malformed value, options that contradict each other) prints
// one line on stderr and exits 2. An option given twice takes its last value, as the
// hand-written parsers these replaced did, so scripts that append an override keep working.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace lather::tools {

class command_line : public CLI::App {
 public:
  /// `description` follows the usage line, above the options.
  command_line(std::string name, std::string description)
      : CLI::App(std::move(description), std::move(name)) {
    option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    formatter(std::make_shared<usage_first>());
  }

  /// Returns when the tool should run; exits 0 after printing the usage for --help, exits 2
  /// through fail() on a usage error.
  void parse_or_exit(int argc, char** argv) {
    try {
      parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::fputs(help().c_str(), stdout);
      std::exit(0);
    } catch (const CLI::ParseError& e) {
      // An unknown option is named even when a required one is missing too (CLI11 reports
      // missing ones first).
      const auto unknown = remaining();
      if (!unknown.empty()) {
        const bool is_option = unknown.front().starts_with('-');
        fail(std::string(is_option ? "unknown option '" : "unexpected argument '") +
             unknown.front() + "'");
      }
      fail(e.what());
    }
  }

  /// --port, --address and --threads of a server (lather::server_options or
  /// lather::http::server_options), with the defaults `opts` holds.
  template <class ServerOptions>
  void add_listen_options(ServerOptions& opts) {
    add_option("--port", opts.port,
               "TCP port (default " + std::to_string(opts.port) + "; 0 picks a free one)")
        ->type_name("P");
    add_option("--address", opts.address, "address to listen on (default " + opts.address + ")")
        ->type_name("A");
    add_option("--threads", opts.threads, "worker threads (default 0: one per core)")
        ->type_name("N");
  }

  /// A usage error: "NAME: MESSAGE (NAME --help lists the options)" on stderr, exit status 2.
  [[noreturn]] void fail(std::string_view message) const {
    const std::string& name = get_name();
    std::fprintf(stderr, "%s: %.*s (%s --help lists the options)\n", name.c_str(),
                 static_cast<int>(message.size()), message.data(), name.c_str());
    std::exit(2);
  }

  /// The value of a "N|never" option (the chunking thresholds): true for "never", else the
  /// byte count in `bytes` (left as it is when `text` is empty: not given); anything else is a
  /// usage error.
  bool bytes_or_never(std::string_view option, std::string_view text, std::size_t& bytes) const {
    if (text == "never") return true;
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (ec != std::errc{} || end != text.data() + text.size())
      fail(std::string(option) + ": '" + std::string(text) + "' is neither a byte count nor never");
    return false;
  }

 private:
  // "Usage: NAME [OPTIONS]" first, then the description, then the options.
  struct usage_first : CLI::Formatter {
    usage_first() { column_width(34); }
    std::string make_description(const CLI::App*) const override { return {}; }
    std::string make_usage(const CLI::App* app, std::string name) const override {
      return CLI::Formatter::make_usage(app, std::move(name)) + app->get_description() + "\n";
    }
  };
};

}  // namespace lather::tools
