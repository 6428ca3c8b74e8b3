#include "vectors.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

namespace interop {
namespace {

using namespace std::chrono;

constexpr const char* kWeird = "<&>\"'";
constexpr const char* kUnicode = "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93";  // héllo wörld ✓
// U+1D11E, U+1F600, U+2070E: each needs a surrogate pair in UTF-16.
constexpr const char* kNonBmp =
    "clef \xf0\x9d\x84\x9e grin \xf0\x9f\x98\x80 cjk-ext-b \xf0\xa0\x9c\x8e";

std::int64_t instant_us(year_month_day day, hours h, minutes m, seconds s,
                        microseconds fraction = microseconds{0}) {
  return duration_cast<microseconds>((sys_days{day} + h + m + s + fraction).time_since_epoch())
      .count();
}

const std::int64_t kWhen = instant_us(2003y / 11 / 5, 12h, 34min, 56s);

std::string shorten(const std::string& text) {
  constexpr std::size_t limit = 120;
  if (text.size() <= limit) return '"' + text + '"';
  return '"' + text.substr(0, limit) + "\"...(" + std::to_string(text.size()) + " bytes)";
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

bool same_double(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

std::string struct_problem(const Item& got, const Item& want) {
  if (got.name != want.name) return "name: got " + shorten(got.name);
  if (got.count != want.count) return "count: got " + std::to_string(got.count);
  if (!same_double(got.price, want.price)) return "price: got " + number(got.price);
  if (got.when_us != want.when_us)
    return "when: got " + std::to_string(got.when_us) + "us want " + std::to_string(want.when_us);
  if (got.tags != want.tags) return "tags: got " + std::to_string(got.tags.size()) + " items";
  if (got.note != want.note) return "note: got " + (got.note ? shorten(*got.note) : "nil");
  return {};
}

std::string array_problem(const std::vector<Item>& got, const std::vector<Item>& want) {
  if (got.size() != want.size())
    return "length: got " + std::to_string(got.size()) + " want " + std::to_string(want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    std::string problem = struct_problem(got[i], want[i]);
    if (!problem.empty()) {
      // Appended piecewise: g++ 12 warns (-Wrestrict, a false positive) on "[" + ... chains.
      std::string where = "[";
      where += std::to_string(i);
      where += "] ";
      return where + problem;
    }
  }
  return {};
}

std::string status_problem(const CallStatus& status) {
  switch (status.kind) {
    case CallStatus::Kind::ok:
      return {};
    case CallStatus::Kind::fault:
      return "fault {" + status.code_namespace + "}" + status.code_local + ": " +
             shorten(status.reason);
    case CallStatus::Kind::error:
      break;
  }
  return "error: " + status.error;
}

Item s1() {
  return {std::string(kUnicode) + " " + kWeird, 7,       1234.5, kWhen,
          {"alpha", kUnicode, kWeird},          "a note"};
}

Item s2() {
  return {"n", 0, -0.25, instant_us(1999y / 12 / 31, 23h, 59min, 59s), {}, {}};
}

Item extreme(double price) {
  Item item = s2();
  item.name = "extreme";
  item.price = price;
  return item;
}

std::vector<Item> a1000() {
  std::vector<Item> items;
  items.reserve(1000);
  for (int i = 0; i < 1000; ++i) {
    const bool even = i % 2 == 0;
    const std::string n = std::to_string(i);
    Item item{"item-" + n, i, i + 0.5, kWhen, {}, {}};
    if (even) {
      item.tags.push_back("t" + n);
      item.note = "n" + n;
    }
    items.push_back(std::move(item));
  }
  return items;
}

std::string big_string() {
  // 5 Mi characters, as in vectors.py: 308404 copies of a 17-character piece plus 12.
  const std::string piece = "lather \xc3\xa9 <&> 5MB ";
  std::string text;
  text.reserve(piece.size() * 308405);
  for (int i = 0; i < 308404; ++i) text += piece;
  text += "lather \xc3\xa9 <&>";
  return text;
}

}  // namespace

int run_vector_checks(InteropCalls& calls, bool soap12, std::ostream& out) {
  int failures = 0;
  auto report = [&](const char* check, const std::string& problem) {
    if (problem.empty()) {
      out << "PASS " << check << '\n';
    } else {
      ++failures;
      out << "FAIL " << check << ' ' << problem << '\n';
    }
    out.flush();
  };
  auto echo_string = [&](const char* check, const std::string& value) {
    std::string result = "<unset>";
    std::string problem = status_problem(calls.echo_string(value, result));
    if (problem.empty() && result != value) problem = "got " + shorten(result);
    report(check, problem);
  };
  auto echo_int = [&](const char* check, int value) {
    int result = value == 0 ? 1 : 0;
    std::string problem = status_problem(calls.echo_int(value, result));
    if (problem.empty() && result != value) problem = "got " + std::to_string(result);
    report(check, problem);
  };
  auto echo_struct = [&](const char* check, const Item& value) {
    Item result;
    std::string problem = status_problem(calls.echo_struct(value, result));
    if (problem.empty()) problem = struct_problem(result, value);
    report(check, problem);
  };
  auto echo_array = [&](const char* check, const std::vector<Item>& value) {
    std::vector<Item> result;
    std::string problem = status_problem(calls.echo_array(value, result));
    if (problem.empty()) problem = array_problem(result, value);
    report(check, problem);
  };

  echo_string("echoString.unicode", kUnicode);
  echo_string("echoString.xmlchars", kWeird);
  echo_string("echoString.empty", "");
  echo_int("echoInt.42", 42);
  echo_int("echoInt.min", std::numeric_limits<int>::min());
  echo_int("echoInt.max", std::numeric_limits<int>::max());
  echo_struct("echoStruct.full", s1());
  echo_struct("echoStruct.nilnote", s2());
  echo_array("echoArray.empty", {});
  echo_array("echoArray.one", {s1()});
  echo_array("echoArray.1000", a1000());
  {
    int sum = 0;
    std::string problem = status_problem(calls.add_numbers(2, 3, sum));
    if (problem.empty() && sum != 5) problem = "got " + std::to_string(sum);
    report("addNumbers.ok", problem);
  }
  {
    int sum = 0;
    const CallStatus status = calls.add_numbers(-1, 5, sum);
    const std::string want_ns = soap12 ? "http://www.w3.org/2003/05/soap-envelope"
                                       : "http://schemas.xmlsoap.org/soap/envelope/";
    const std::string want_code = soap12 ? "Sender" : "Client";
    std::string problem;
    if (status.kind == CallStatus::Kind::ok) {
      problem = "no fault, got " + std::to_string(sum);
    } else if (status.kind == CallStatus::Kind::error) {
      problem = status_problem(status);
    } else if (status.code_namespace != want_ns || status.code_local != want_code) {
      problem = "faultcode {" + status.code_namespace + "}" + status.code_local;
    } else if (status.reason != "negative") {
      problem = "faultstring " + shorten(status.reason);
    }
    report("addNumbers.fault", problem);
  }
  {
    std::vector<unsigned char> bytes(256);
    for (int i = 0; i < 256; ++i) bytes[i] = static_cast<unsigned char>(i);
    std::vector<unsigned char> result;
    std::string problem = status_problem(calls.echo_binary(bytes, result));
    if (problem.empty() && result != bytes)
      problem = "got " + std::to_string(result.size()) + " different bytes";
    report("echoBinary.bytes", problem);
  }
  echo_string("echoString.nonbmp", kNonBmp);
  echo_string("echoString.5mb", big_string());
  {
    Item zoned = s1();  // 14:34:56.125+02:00 is this instant
    zoned.when_us = instant_us(2003y / 11 / 5, 12h, 34min, 56s, 125000us);
    echo_struct("echoStruct.zoned", zoned);
  }
  echo_struct("echoStruct.dblmax", extreme(std::numeric_limits<double>::max()));
  echo_struct("echoStruct.dbldenorm", extreme(std::numeric_limits<double>::denorm_min()));
  echo_struct("echoStruct.negzero", extreme(-0.0));
  echo_struct("echoStruct.inf", extreme(-std::numeric_limits<double>::infinity()));
  echo_struct("echoStruct.nan", extreme(std::numeric_limits<double>::quiet_NaN()));
  return failures;
}

}  // namespace interop
