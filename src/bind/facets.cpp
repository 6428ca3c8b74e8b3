// XSD facets checked on a value's text (lather/bind/facets.hpp), and the pattern matcher.
//
// XSD regular expressions (XML Schema part 2, appendix F) have no anchors, backreferences or
// lookaround: each is a regular language, matched here by a Thompson NFA run in lock step
// (a Pike VM without captures) over the text's code points. Time is linear in the text times
// the program's size, and the run uses no recursion: std::regex backtracks, recursing once or
// more per character (a long value would overflow a server coroutine's stack) and taking
// exponential time on some patterns, which hostile input can choose.
//
// Character classes are sets of code-point ranges. The Unicode properties behind \d, \w, \i,
// \c and \p{Category} are exact over ASCII; over the rest of Unicode (no tables here) such a
// class and its complement both accept every character (`approx`), so that no valid value is
// refused: a non-ASCII character is only tested against the ranges a pattern spells out.
#include "lather/bind/facets.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "lather/bind/detail/core.hpp"
#include "lather/bind/xsd.hpp"
#include "lather/xml/name.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace lather::bind {
namespace {

// ---------------------------------------------------------------- character sets

constexpr char32_t max_code_point = 0x10FFFF;

struct char_set {
  std::vector<std::pair<char32_t, char32_t>> ranges;  ///< sorted, disjoint after normalize()
  bool approx = false;  ///< beyond ASCII every character is in the set and in its complement

  void add(char32_t lo, char32_t hi) { ranges.emplace_back(lo, hi); }
  void add_chars(std::string_view chars) {
    for (char ch : chars) add(static_cast<unsigned char>(ch), static_cast<unsigned char>(ch));
  }
  void normalize() {
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<char32_t, char32_t>> out;
    for (const auto& r : ranges) {
      if (!out.empty() && r.first <= out.back().second + 1)
        out.back().second = std::max(out.back().second, r.second);
      else
        out.push_back(r);
    }
    ranges = std::move(out);
  }
  bool contains(char32_t c) const noexcept {
    if (approx && c >= 0x80) return true;
    auto it = std::upper_bound(ranges.begin(), ranges.end(), c,
                               [](char32_t v, const auto& r) { return v < r.first; });
    return it != ranges.begin() && c <= std::prev(it)->second;
  }
};

char_set complement(char_set s) {
  s.normalize();
  char_set out;
  out.approx = s.approx;
  char32_t next = 0;
  for (const auto& r : s.ranges) {
    if (r.first > next) out.add(next, r.first - 1);
    next = r.second + 1;
  }
  if (next <= max_code_point) out.add(next, max_code_point);
  return out;
}

char_set unite(char_set a, const char_set& b) {
  a.ranges.insert(a.ranges.end(), b.ranges.begin(), b.ranges.end());
  a.approx = a.approx || b.approx;
  a.normalize();
  return a;
}

/// a - b: the complement of (not a, or b).
char_set subtract(const char_set& a, const char_set& b) {
  char_set out = complement(unite(complement(a), b));
  out.approx = a.approx || b.approx;
  return out;
}

char_set ascii(std::string_view chars, bool approx = true) {
  char_set s;
  s.add_chars(chars);
  s.approx = approx;
  s.normalize();
  return s;
}
char_set letters(bool upper, bool lower) {
  char_set s;
  if (upper) s.add('A', 'Z');
  if (lower) s.add('a', 'z');
  s.approx = true;
  return s;
}

constexpr std::string_view ascii_punctuation = "!\"#%&'()*,-./:;?@[\\]_{}";
constexpr std::string_view ascii_symbols = "$+<=>^`|~";

/// \p{name}: a general category, exact over ASCII; IsBasicLatin exactly. Other blocks are not
/// implemented (nullopt).
std::optional<char_set> category(std::string_view name) {
  if (name == "IsBasicLatin") {
    char_set s;
    s.add(0, 0x7F);
    return s;
  }
  if (name.empty() || name.size() > 2) return std::nullopt;
  const char major = name[0];
  const char minor = name.size() == 2 ? name[1] : '\0';
  char_set none;
  none.approx = true;
  switch (major) {
    case 'L':
      if (minor == '\0') return letters(true, true);
      if (minor == 'u') return letters(true, false);
      if (minor == 'l') return letters(false, true);
      if (minor == 't' || minor == 'm' || minor == 'o') return none;
      return std::nullopt;
    case 'M':
      if (minor == '\0' || minor == 'n' || minor == 'c' || minor == 'e') return none;
      return std::nullopt;
    case 'N': {
      if (minor == '\0' || minor == 'd') {
        char_set s;
        s.add('0', '9');
        s.approx = true;
        return s;
      }
      if (minor == 'l' || minor == 'o') return none;
      return std::nullopt;
    }
    case 'P':
      switch (minor) {
        case '\0':
          return ascii(ascii_punctuation);
        case 'c':
          return ascii("_");
        case 'd':
          return ascii("-");
        case 's':
          return ascii("([{");
        case 'e':
          return ascii(")]}");
        case 'i':
        case 'f':
          return none;
        case 'o':
          return ascii("!\"#%&'*,./:;?@\\");
        default:
          return std::nullopt;
      }
    case 'Z':
      if (minor == '\0' || minor == 's') return ascii(" ");
      if (minor == 'l' || minor == 'p') return none;
      return std::nullopt;
    case 'S':
      switch (minor) {
        case '\0':
          return ascii(ascii_symbols);
        case 'm':
          return ascii("+<=>|~");
        case 'c':
          return ascii("$");
        case 'k':
          return ascii("^`");
        case 'o':
          return none;
        default:
          return std::nullopt;
      }
    case 'C': {
      if (minor == '\0' || minor == 'c') {
        char_set s;
        s.add(0, 0x1F);
        s.add(0x7F, 0x7F);
        s.approx = true;
        return s;
      }
      if (minor == 'f' || minor == 'o' || minor == 'n') return none;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

/// The multi-character escapes \s \i \c \d \w (lower case; upper case is the complement).
char_set multi_char(char e) {
  switch (e) {
    case 's':
      return ascii(" \t\n\r", false);
    case 'i': {
      char_set s = letters(true, true);
      s.add_chars("_:");
      s.normalize();
      return s;
    }
    case 'c': {
      char_set s = letters(true, true);
      s.add('0', '9');
      s.add_chars("._:-");
      s.normalize();
      return s;
    }
    case 'd':
      return *category("Nd");
    default: {  // w: all but punctuation, separators and others
      char_set s = letters(true, true);
      s.add('0', '9');
      s.add_chars(ascii_symbols);
      s.normalize();
      return s;
    }
  }
}

// ---------------------------------------------------------------- parsing

struct unsupported {
  std::string why;
};

/// A parsed expression: a set, a concatenation, an alternation or a repetition.
struct node {
  enum class kind : std::uint8_t { set, concat, alternation, repeat } what = kind::concat;
  std::uint32_t set = 0;
  std::uint32_t min = 1, max = 1;  ///< repeat; max unbounded_repeat for none
  std::vector<node> kids;
};
constexpr std::uint32_t unbounded_repeat = 0xffffffffu;

/// The code point of UTF-8 `s` at `i`, `i` moved past it; false if it is not UTF-8.
bool decode_one(std::string_view s, std::size_t& i, char32_t& c) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n;
  if (b < 0x80) {
    c = b;
    n = 1;
  } else if ((b & 0xE0) == 0xC0) {
    c = b & 0x1F;
    n = 2;
  } else if ((b & 0xF0) == 0xE0) {
    c = b & 0x0F;
    n = 3;
  } else if ((b & 0xF8) == 0xF0) {
    c = b & 0x07;
    n = 4;
  } else {
    return false;
  }
  if (i + n > s.size()) return false;
  for (std::size_t k = 1; k < n; ++k) {
    const auto x = static_cast<unsigned char>(s[i + k]);
    if ((x & 0xC0) != 0x80) return false;
    c = (c << 6) | (x & 0x3F);
  }
  i += n;
  return c <= max_code_point;
}

/// The code points of a UTF-8 string; false if it is not UTF-8.
bool decode(std::string_view s, std::u32string& out) {
  out.clear();
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t c;
    if (!decode_one(s, i, c)) return false;
    out.push_back(c);
  }
  return true;
}

class parser {
 public:
  parser(const std::u32string& p, std::vector<char_set>& sets) : p_(p), sets_(sets) {}

  node parse() {
    node n = alternation();
    if (i_ != p_.size()) fail("unbalanced ')'");
    return n;
  }

 private:
  [[noreturn]] static void fail(std::string why) { throw unsupported{std::move(why)}; }
  bool at_end() const { return i_ == p_.size(); }
  char32_t peek(std::size_t ahead = 0) const {
    return i_ + ahead < p_.size() ? p_[i_ + ahead] : char32_t{0xFFFFFFFF};
  }
  char32_t take() {
    if (at_end()) fail("unexpected end");
    return p_[i_++];
  }
  node set_node(char_set s) {
    s.normalize();
    sets_.push_back(std::move(s));
    node n;
    n.what = node::kind::set;
    n.set = static_cast<std::uint32_t>(sets_.size() - 1);
    return n;
  }

  node alternation() {
    node alt;
    alt.what = node::kind::alternation;
    alt.kids.push_back(branch());
    while (peek() == U'|') {
      ++i_;
      alt.kids.push_back(branch());
    }
    return alt.kids.size() == 1 ? std::move(alt.kids[0]) : alt;
  }
  node branch() {
    node cat;
    while (!at_end() && peek() != U'|' && peek() != U')') cat.kids.push_back(piece());
    return cat;
  }
  std::uint32_t number() {
    std::uint64_t n = 0;
    bool any = false;
    while (peek() >= U'0' && peek() <= U'9') {
      n = n * 10 + (take() - U'0');
      if (n > 100000) fail("a quantifier over the matcher's size limit");
      any = true;
    }
    if (!any) fail("a quantifier without a number");
    return static_cast<std::uint32_t>(n);
  }
  node piece() {
    node a = atom();
    std::uint32_t min = 1, max = 1;
    switch (peek()) {
      case U'?':
        min = 0;
        break;
      case U'*':
        min = 0;
        max = unbounded_repeat;
        break;
      case U'+':
        max = unbounded_repeat;
        break;
      case U'{':
        ++i_;
        min = max = number();
        if (peek() == U',') {
          ++i_;
          max = peek() == U'}' ? unbounded_repeat : number();
          if (max < min) fail("a quantifier {n,m} with m < n");
        }
        if (peek() != U'}') fail("an unterminated quantifier");
        break;
      default:
        return a;
    }
    ++i_;
    node r;
    r.what = node::kind::repeat;
    r.min = min;
    r.max = max;
    r.kids.push_back(std::move(a));
    return r;
  }
  node atom() {
    const char32_t c = take();
    switch (c) {
      case U'(': {
        node n = alternation();
        if (take() != U')') fail("unbalanced '('");
        return n;
      }
      case U'[':
        return set_node(class_expr());
      case U'.': {
        char_set s;
        s.add_chars("\n\r");
        return set_node(complement(std::move(s)));
      }
      case U'\\':
        return set_node(escape());
      case U'?':
      case U'*':
      case U'+':
      case U'{':
      case U'}':
      case U')':
      case U']':
        fail("a quantifier or bracket where a character is expected");
      default: {
        char_set s;
        s.add(c, c);
        return set_node(std::move(s));
      }
    }
  }
  /// After '\': a single-character escape (its one character), a multi-character or category
  /// escape.
  char_set escape() {
    const char32_t c = take();
    char_set s;
    switch (c) {
      case U'n':
        s.add('\n', '\n');
        return s;
      case U'r':
        s.add('\r', '\r');
        return s;
      case U't':
        s.add('\t', '\t');
        return s;
      case U'\\':
      case U'|':
      case U'.':
      case U'?':
      case U'*':
      case U'+':
      case U'(':
      case U')':
      case U'{':
      case U'}':
      case U'-':
      case U'[':
      case U']':
      case U'^':
        s.add(c, c);
        return s;
      case U's':
      case U'i':
      case U'c':
      case U'd':
      case U'w':
        return multi_char(static_cast<char>(c));
      case U'S':
      case U'I':
      case U'C':
      case U'D':
      case U'W':
        return complement(multi_char(static_cast<char>(c - U'A' + U'a')));
      case U'p':
      case U'P': {
        if (take() != U'{') fail("\\p without '{'");
        std::string name;
        while (peek() != U'}') {
          const char32_t x = take();
          if (x > 0x7F) fail("a non-ASCII category name");
          name.push_back(static_cast<char>(x));
        }
        ++i_;
        std::optional<char_set> cat = category(name);
        if (!cat) fail("the Unicode block or category \\p{" + name + "}");
        return c == U'p' ? std::move(*cat) : complement(std::move(*cat));
      }
      default:
        fail("an unknown escape");
    }
  }
  /// A character of a class (a literal or a single-character escape), or a multi-character
  /// or category escape.
  char_set class_item() {
    if (peek() == U'\\') {
      ++i_;
      return escape();
    }
    char_set s;
    const char32_t c = take();
    s.add(c, c);
    return s;
  }
  static bool single(const char_set& s) {
    return !s.approx && s.ranges.size() == 1 && s.ranges[0].first == s.ranges[0].second;
  }
  /// After '[': the group, an optional subtraction, through ']'.
  char_set class_expr() {
    bool negated = false;
    if (peek() == U'^') {
      ++i_;
      negated = true;
    }
    char_set group;
    bool first = true;
    for (;;) {
      if (at_end()) fail("an unterminated character class");
      const char32_t c = peek();
      if (c == U']' && !first) break;
      if (c == U'-' && peek(1) == U'[' && !first) break;  // subtraction
      if (c == U'[') fail("'[' inside a character class");
      char_set item = class_item();
      if (peek() == U'-' && peek(1) != U']' && peek(1) != U'[') {
        ++i_;
        char_set to = class_item();
        if (!single(item) || !single(to)) fail("a range with a multi-character escape");
        const char32_t lo = item.ranges[0].first, hi = to.ranges[0].first;
        if (hi < lo) fail("a range whose end is before its start");
        item.ranges = {{lo, hi}};
      }
      group = unite(std::move(group), item);
      first = false;
    }
    if (negated) group = complement(std::move(group));
    if (peek() == U'-') {
      i_ += 2;  // "-["
      group = subtract(group, class_expr());
    }
    if (take() != U']') fail("an unterminated character class");
    return group;
  }

  const std::u32string& p_;
  std::vector<char_set>& sets_;
  std::size_t i_ = 0;
};

// ---------------------------------------------------------------- the program

enum class op : std::uint8_t { set, split, jump, match };
struct instruction {
  op what;
  std::uint32_t a = 0, b = 0;  ///< set: the set; split: both targets; jump: the target
};
constexpr std::size_t max_program = 20000;

class compiler {
 public:
  explicit compiler(std::vector<instruction>& code) : code_(code) {}
  void emit(const node& n) {
    if (code_.size() > max_program) throw unsupported{"a pattern over the matcher's size limit"};
    switch (n.what) {
      case node::kind::set:
        add({op::set, n.set});
        break;
      case node::kind::concat:
        for (const node& k : n.kids) emit(k);
        break;
      case node::kind::alternation: {
        std::vector<std::size_t> jumps;
        for (std::size_t k = 0; k < n.kids.size(); ++k) {
          if (k + 1 == n.kids.size()) {
            emit(n.kids[k]);
            break;
          }
          const std::size_t split = add({op::split});
          code_[split].a = here();
          emit(n.kids[k]);
          jumps.push_back(add({op::jump}));
          code_[split].b = here();
        }
        for (std::size_t j : jumps) code_[j].a = here();
        break;
      }
      case node::kind::repeat: {
        const node& body = n.kids[0];
        for (std::uint32_t k = 0; k < n.min; ++k) emit(body);
        if (n.max == unbounded_repeat) {
          const std::size_t split = add({op::split});
          code_[split].a = here();
          emit(body);
          add({op::jump, static_cast<std::uint32_t>(split)});
          code_[split].b = here();
        } else {
          std::vector<std::size_t> splits;
          for (std::uint32_t k = n.min; k < n.max; ++k) {
            splits.push_back(add({op::split}));
            code_[splits.back()].a = here();
            emit(body);
          }
          for (std::size_t s : splits) code_[s].b = here();
        }
        break;
      }
    }
  }

 private:
  std::size_t add(instruction i) {
    code_.push_back(i);
    return code_.size() - 1;
  }
  std::uint32_t here() const { return static_cast<std::uint32_t>(code_.size()); }
  std::vector<instruction>& code_;
};

}  // namespace

struct detail::pattern_program {
  std::vector<instruction> code;
  std::vector<char_set> sets;
  std::string unsupported;  ///< why the pattern is not checked ("" if it is)
};

namespace {
using program = detail::pattern_program;

program compile(std::string_view pattern) {
  program p;
  try {
    std::u32string cps;
    if (!decode(pattern, cps)) throw unsupported{"a pattern that is not UTF-8"};
    const node n = parser(cps, p.sets).parse();
    compiler(p.code).emit(n);
    if (p.code.size() > max_program) throw unsupported{"a pattern over the matcher's size limit"};
    p.code.push_back({op::match});
  } catch (const unsupported& u) {
    p.code.clear();
    p.sets.clear();
    p.unsupported = u.why;
  }
  return p;
}

/// Steps (characters times instructions) beyond which a text is not matched.
constexpr std::uint64_t match_budget = std::uint64_t{1} << 25;

/// The matcher's lists, one set per thread, grown to the largest program it ran and reused:
/// a check allocates nothing once they have.
struct match_buffers {
  std::vector<std::uint32_t> now, next, stack, mark;
};

/// 1 if the whole of `text` matches `p`, 0 if not, -1 if `text` is not UTF-8.
int run(const program& p, std::string_view text) {
  thread_local match_buffers b;
  const std::size_t n = p.code.size();
  std::vector<std::uint32_t>& now = b.now;
  std::vector<std::uint32_t>& next = b.next;
  std::vector<std::uint32_t>& stack = b.stack;
  std::vector<std::uint32_t>& mark = b.mark;
  now.clear();
  next.clear();
  stack.clear();
  mark.assign(n, 0xffffffffu);
  // The threads reached from `pc` without consuming a character, into `list`.
  auto add = [&](std::vector<std::uint32_t>& list, std::uint32_t pc, std::uint32_t generation) {
    stack.push_back(pc);
    while (!stack.empty()) {
      const std::uint32_t at = stack.back();
      stack.pop_back();
      if (mark[at] == generation) continue;
      mark[at] = generation;
      const instruction& i = p.code[at];
      if (i.what == op::jump) {
        stack.push_back(i.a);
      } else if (i.what == op::split) {
        stack.push_back(i.b);
        stack.push_back(i.a);
      } else {
        list.push_back(at);
      }
    }
  };
  add(now, 0, 0);
  std::uint32_t generation = 0;
  for (std::size_t k = 0; k < text.size();) {
    char32_t c;
    if (!decode_one(text, k, c)) return -1;
    next.clear();
    ++generation;
    for (std::uint32_t pc : now) {
      const instruction& i = p.code[pc];
      if (i.what == op::set && p.sets[i.a].contains(c)) add(next, pc + 1, generation);
    }
    now.swap(next);
    if (now.empty()) {
      // The rest must still be UTF-8 for the answer to be "does not match".
      for (char32_t x; k < text.size();)
        if (!decode_one(text, k, x)) return -1;
      return 0;
    }
  }
  for (std::uint32_t pc : now)
    if (p.code[pc].what == op::match) return 1;
  return 0;
}

// ---------------------------------------------------------------- the facets

/// `text` shortened for messages, cut on a character boundary.
std::string excerpt(std::string_view text) {
  constexpr std::size_t max = 40;
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string s(text.substr(0, cut));
  s.append("...");
  return s;
}

bool is_xml_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// The text after the whiteSpace rule (`storage` holds it where it changes).
std::string_view apply_white_space(std::string_view text, white_space rule, std::string& storage) {
  if (rule == white_space::preserve) return text;
  const bool changes = std::any_of(text.begin(), text.end(), [&](char c) {
    return c == '\t' || c == '\n' || c == '\r' || (rule == white_space::collapse && c == ' ');
  });
  if (!changes) return text;
  storage.clear();
  for (char c : text) {
    const char x = is_xml_space(c) ? ' ' : c;
    if (rule == white_space::collapse && x == ' ' && (storage.empty() || storage.back() == ' '))
      continue;
    storage.push_back(x);
  }
  if (rule == white_space::collapse && !storage.empty() && storage.back() == ' ')
    storage.pop_back();
  return storage;
}

/// The length of a value in the unit of its type; false where length facets do not apply.
bool value_length(std::string_view v, facet_value kind, std::uint64_t& n) {
  switch (kind) {
    case facet_value::string:
      n = static_cast<std::uint64_t>(
          std::count_if(v.begin(), v.end(), [](char c) { return (c & 0xC0) != 0x80; }));
      return true;
    case facet_value::hex_binary:
      n = v.size() / 2;
      return true;
    case facet_value::base64_binary: {
      std::uint64_t chars = 0, pad = 0;
      for (char c : v) {
        if (c == '=')
          ++pad;
        else if (!is_xml_space(c))
          ++chars;
      }
      n = (chars + pad) / 4 * 3 - pad;
      return (chars + pad) % 4 == 0;
    }
    case facet_value::list:  // collapsed: items are separated by one space
      n = v.empty() ? 0 : static_cast<std::uint64_t>(std::count(v.begin(), v.end(), ' ')) + 1;
      return true;
    default:
      return false;
  }
}

/// A decimal's lexical form: its sign, integer digits without leading zeros and fraction
/// digits without trailing zeros.
struct decimal_text {
  bool negative = false;
  std::string_view integer, fraction;
};
bool parse_decimal(std::string_view s, decimal_text& d) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    d.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  const std::size_t dot = s.find('.');
  std::string_view i = s.substr(0, dot), f = dot == s.npos ? std::string_view{} : s.substr(dot + 1);
  if (i.empty() && f.empty()) return false;
  auto digits = [](std::string_view x) {
    return std::all_of(x.begin(), x.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(i) || !digits(f)) return false;
  while (!i.empty() && i[0] == '0') i.remove_prefix(1);
  while (!f.empty() && f.back() == '0') f.remove_suffix(1);
  d.integer = i;
  d.fraction = f;
  if (i.empty() && f.empty()) d.negative = false;  // -0 is 0
  return true;
}
int compare_decimal(const decimal_text& a, const decimal_text& b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  int m = 0;  // the magnitudes
  if (a.integer.size() != b.integer.size())
    m = a.integer.size() < b.integer.size() ? -1 : 1;
  else if (const int c = a.integer.compare(b.integer); c != 0)
    m = c < 0 ? -1 : 1;
  else if (const int d = a.fraction.compare(b.fraction); d != 0)
    m = d < 0 ? -1 : 1;
  return a.negative ? -m : m;
}

/// How `v` compares with the bound `b`: -1, 0, 1, or 2 where they do not compare (a bound of a
/// type without order here, NaN, or text that is not a number).
int compare_value(std::string_view v, std::string_view b, facet_value kind) {
  if (kind == facet_value::decimal) {
    decimal_text x, y;
    if (!parse_decimal(v, x) || !parse_decimal(b, y)) return 2;
    return compare_decimal(x, y);
  }
  if (kind == facet_value::floating) {
    double x = 0, y = 0;
    if (xsd_traits<double>::parse(v, x) != errc::ok || xsd_traits<double>::parse(b, y) != errc::ok)
      return 2;
    if (x != x || y != y) return x != x && y != y ? 0 : 2;  // NaN: equal only to NaN
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return 2;
}

/// Whether `t` (collapsed) is a value of the XSD built-in `built_in` where lather reads that
/// type (true for the others).
template <class T>
bool parses_as(std::string_view t) {
  T x{};
  return xsd_traits<T>::parse(t, x) == errc::ok;
}
bool built_in_form(std::string_view t, std::string_view built_in) {
  if (built_in == "boolean") return parses_as<bool>(t);
  if (built_in == "dateTime") return parses_as<xsd::date_time>(t);
  if (built_in == "date") return parses_as<xsd::date>(t);
  if (built_in == "time") return parses_as<xsd::time>(t);
  if (built_in == "duration") return parses_as<xsd::duration>(t);
  if (built_in == "QName") {  // lexical: [prefix:]local, both NCNames (no namespace to resolve)
    const std::size_t colon = t.find(':');
    return colon == std::string_view::npos
               ? xml::is_ncname(t)
               : xml::is_ncname(t.substr(0, colon)) && xml::is_ncname(t.substr(colon + 1));
  }
  return true;
}

/// Whether `text` is in the lexical space of the union member type `m`: its built_in's where
/// lather reads that type, and its facet_value's (a decimal, a float or double, hexBinary,
/// base64Binary; any text for the others).
bool lexical_form_of(std::string_view text, const facets& m) {
  const std::string_view t = xsd::detail::trim_xml_space(text);
  if (!built_in_form(t, m.built_in)) return false;
  switch (m.value) {
    case facet_value::decimal: {
      decimal_text d;
      return parse_decimal(t, d);
    }
    case facet_value::floating: {
      double x = 0;
      return xsd_traits<double>::parse(t, x) == errc::ok;
    }
    case facet_value::hex_binary:
      return t.size() % 2 == 0 && std::all_of(t.begin(), t.end(), [](char c) {
               return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
             });
    case facet_value::base64_binary: {
      std::uint64_t n = 0;
      return std::all_of(t.begin(), t.end(),
                         [](char c) {
                           return (c >= '0' && c <= '9') ||
                                  ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '+' ||
                                  c == '/' || c == '=' || is_xml_space(c);
                         }) &&
             value_length(t, m.value, n);
    }
    default:
      return true;
  }
}

std::string violation(std::string_view v, std::string_view facet, std::string_view value,
                      std::string_view detail = {}) {
  // Appended piece by piece: "literal" + std::string&& trips GCC 12's -Wrestrict.
  std::string s = "\"";
  s.append(excerpt(v)).append("\" violates ").append(facet);
  if (!value.empty()) s.append(" ").append(value);
  if (!detail.empty()) s.append(" (").append(detail).append(")");
  return s;
}

}  // namespace

void detail::release(const pattern_program* p) noexcept {
  delete p;
}

const detail::pattern_program& pattern::program() const {
  const detail::pattern_program* p = program_.load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  const auto* made = new detail::pattern_program(compile(text_));
  if (program_.compare_exchange_strong(p, made, std::memory_order_acq_rel)) return *made;
  delete made;  // another thread's copy was kept
  return *p;
}

std::string pattern_unsupported(std::string_view pattern) {
  return compile(pattern).unsupported;
}

int pattern::match(std::string_view text) const {
  const detail::pattern_program& p = program();
  if (!p.unsupported.empty()) return -1;
  if (static_cast<std::uint64_t>(text.size()) * p.code.size() > match_budget) return -1;
  return run(p, text);
}

int match_pattern(std::string_view expression, std::string_view text) {
  const pattern p{expression};
  return p.match(text);
}

std::string facet_violation(std::string_view text, const facets& f) {
  thread_local std::string storage;  // reused: no allocation per value once grown
  const std::string_view v = apply_white_space(
      text, f.value == facet_value::string ? f.space : white_space::collapse, storage);
  auto present = [&](const facet_limit<std::uint32_t>& c) { return f.*c.limit != no_facet; };
  auto beyond = [&](const facet_limit<std::uint32_t>& c, std::uint64_t n) {
    const std::uint32_t limit = f.*c.limit;
    return c.violated < 0 ? n < limit : c.violated > 0 ? n > limit : n != limit;
  };
  if (std::uint64_t n = 0;
      std::any_of(std::begin(length_facets), std::end(length_facets), present) &&
      value_length(v, f.value, n)) {
    const char* unit = f.value == facet_value::string ? " characters"
                       : f.value == facet_value::list ? " items"
                                                      : " octets";
    for (const facet_limit<std::uint32_t>& c : length_facets)
      if (present(c) && beyond(c, n))
        return violation(v, c.name, std::to_string(f.*c.limit), std::to_string(n) + unit);
  }
  if (decimal_text d; f.value == facet_value::decimal &&
                      std::any_of(std::begin(digit_facets), std::end(digit_facets), present) &&
                      parse_decimal(v, d)) {
    // totalDigits, then fractionDigits.
    const std::size_t n[] = {std::max<std::size_t>(d.integer.size() + d.fraction.size(), 1),
                             d.fraction.size()};
    const char* unit[] = {" digits", " fraction digits"};
    for (std::size_t i = 0; i < std::size(digit_facets); ++i)
      if (present(digit_facets[i]) && beyond(digit_facets[i], n[i]))
        return violation(v, digit_facets[i].name, std::to_string(f.*digit_facets[i].limit),
                         std::to_string(n[i]) + unit[i]);
  }
  for (const facet_limit<std::string_view>& b : bound_facets) {
    if ((f.*b.limit).empty()) continue;
    // A float or double that does not compare (NaN against a number) is outside every bound.
    const int c = compare_value(v, f.*b.limit, f.value);
    if (c == b.violated || (b.exclusive && c == 0) || (c == 2 && f.value == facet_value::floating))
      return violation(v, b.name, f.*b.limit);
  }
  if (!f.enumeration.empty()) {
    const bool numeric = f.value == facet_value::decimal || f.value == facet_value::floating;
    const bool listed = std::any_of(
        f.enumeration.begin(), f.enumeration.end(),
        [&](std::string_view e) { return numeric ? compare_value(v, e, f.value) == 0 : v == e; });
    if (!listed)
      return violation(v, "enumeration", {},
                       "not one of its " + std::to_string(f.enumeration.size()) + " values");
  }
  for (const pattern& p : f.patterns)
    if (p.match(v) == 0) return violation(v, "pattern", p.text());
  if (!f.members.empty()) {
    // Last: a member's check may reuse `storage`, which `v` may be (`text` is the caller's).
    for (const facets* m : f.members)
      if (lexical_form_of(text, *m) && facet_violation(text, *m).empty()) return {};
    return violation(xsd::detail::trim_xml_space(text), "its union's member types", {},
                     "none of its " + std::to_string(f.members.size()) + " accepts it");
  }
  if (f.value == facet_value::list && f.items != nullptr) {
    // An item holds no whitespace: its own check leaves `storage`, which `v` may be, alone.
    std::size_t k = 0;
    for (std::size_t at = 0; at < v.size();) {
      const std::size_t end = std::min(v.find(' ', at), v.size());
      ++k;
      if (std::string why = facet_violation(v.substr(at, end - at), *f.items); !why.empty())
        return "item " + std::to_string(k) + ": " + why;
      at = end + 1;
    }
  }
  return {};
}

namespace detail {
bool check_facets(read_ctx& c, const field_match& f, std::string_view text) {
  return check_facets(c, *f.constraints, text);
}
const facets* facets_to_check(const read_ctx& c, const field_match& f) noexcept {
  if (!c.opts.validate_facets) return nullptr;
  return f.alternative_count == 0 ? f.constraints : alternative_facets(f, c.r.local_name());
}
bool check_facets(read_ctx& c, const facets& x, std::string_view text) {
  if (!c.opts.validate_facets) return true;
  std::string why = facet_violation(text, x);
  return why.empty() || fail(c, errc::facet_violation, std::move(why));
}

namespace {
/// The write_options of the innermost write_scope on this thread (nullptr: none, the defaults).
thread_local const write_options* current_write = nullptr;
}  // namespace

bool validating_writes() noexcept {
  return current_write != nullptr && current_write->validate_facets;
}

void check_written_facets(const field_match& f, std::string_view text, bool in_element) {
  std::string why = facet_violation(text, *f.constraints);
  if (why.empty()) return;
  try {
    throw_write_error(errc::facet_violation, std::move(why));
  } catch (...) {
    if (in_element) rethrow_in_element(f.name());
    throw;
  }
}
void check_written_facets(const facets& x, std::string_view name, std::string_view text) {
  std::string why = facet_violation(text, x);
  if (why.empty()) return;
  try {
    throw_write_error(errc::facet_violation, std::move(why));
  } catch (...) {
    rethrow_in_element(name);
  }
}

void check_table_on_write(const complex_vt& vt, const void* obj) {
  xml::output out;
  xml::reader r;
  std::string text;
  for (const field_match* f = vt.fields; f != vt.fields + vt.field_count; ++f) {
    if (!f->has_facets) continue;
    // The field written aside, into an element of its own, then read back: the texts are those
    // the real write makes, whatever the member's C++ type (one routine per field, no code per
    // type for this); the cost falls on validating writes only.
    out.clear();
    {
      xml::writer aside{out};
      aside.start_element(vt.ns, std::string_view("v"));
      xml::leaf_namespace leaves{vt.ns};
      f->routines->write(aside, obj, *f, leaves);
      aside.end_document();
    }
    r.reset(out.view());
    r.next();  // <v>
    if (f->kind == field_kind::attribute) {
      if (const xml::attribute* a = r.find_attribute(f->ns, f->name())) {
        try {
          check_written_facets(*f, a->value, false);
        } catch (...) {
          rethrow_in_attribute(f->name());
        }
      }
      continue;
    }
    // Elements: each occurrence's content (a nil one has none to check); text: <v>'s own. A
    // choice's occurrence: its alternative's facets, by the element's name (none: unchecked).
    const bool repeated = f->max_occurs > 1, choice = f->alternative_count != 0;
    std::uint32_t depth = 1, index = 0;
    bool nil = false;
    const facets* alternative = nullptr;
    std::string_view alternative_name;
    text.clear();
    for (xml::token t = r.next(); t != xml::token::end_document && t != xml::token::error;
         t = r.next()) {
      if (t == xml::token::start_element) {
        if (++depth == 2) {
          text.clear();
          const xml::attribute* n = r.find_attribute(xsi_namespace, "nil");
          nil = n != nullptr && (n->value == "true" || n->value == "1");
          if (choice) {
            alternative = alternative_facets(*f, r.local_name());
            if (alternative != nullptr)
              for (std::uint32_t a = 0; a < f->alternative_count; ++a)
                if (f->alternative(a) == r.local_name()) alternative_name = f->alternative(a);
          }
        }
      } else if (t == xml::token::text) {
        if (depth == (f->kind == field_kind::text ? 1u : 2u)) text.append(r.text());
      } else if (t == xml::token::end_element) {
        if (depth == 2 && f->kind == field_kind::element) {
          ++index;
          try {
            if (choice) {
              if (!nil && alternative != nullptr)
                check_written_facets(*alternative, alternative_name, text);
            } else if (!nil) {
              check_written_facets(*f, text, true);
            }
          } catch (...) {
            if (!repeated) throw;
            rethrow_in_item(index);
          }
        } else if (depth == 1 && f->kind == field_kind::text) {
          check_written_facets(*f, text, false);
        }
        --depth;
      }
    }
  }
}

bool read_attribute_with_facets(read_ctx& c, parse_fn parse, void* out, std::string_view text,
                                std::string_view type_name, const field_match& f) {
  const errc e = parse(text, out, c.r);
  if (e != errc::ok) return fail_value(c, e, text, type_name);
  return check_facets(c, f, text);
}
}  // namespace detail

void write_scope::enter(const write_options& o) noexcept {
  outer_ = detail::current_write;
  detail::current_write = &o;
  entered_ = true;
}
void write_scope::leave() noexcept {
  detail::current_write = outer_;
}

}  // namespace lather::bind
