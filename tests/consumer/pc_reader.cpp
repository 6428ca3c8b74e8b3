// Built by tests/consumer/run.sh with `pkg-config --cflags --libs lather` only: prints the
// text of {urn:greeter}name in a document, read with lather's XML reader.
#include <lather/xml.hpp>

#include <cstdio>
#include <string_view>

int main() {
  using lather::xml::token;
  constexpr std::string_view document =
      R"(<g:greet xmlns:g="urn:greeter"><g:name>Ada</g:name></g:greet>)";
  lather::xml::reader reader;
  reader.reset(document);
  bool in_name = false;
  for (auto t = reader.next(); t != token::end_document; t = reader.next()) {
    if (t == token::error) return 1;
    if (t == token::start_element) in_name = reader.is("urn:greeter", "name");
    if (t == token::text && in_name)
      std::printf("%.*s\n", int(reader.text().size()), reader.text().data());
  }
}
