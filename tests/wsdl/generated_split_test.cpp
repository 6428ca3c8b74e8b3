// A hierarchy of generated types whose code is split across files (data/features.wsdl in three
// code_<k>.cpp, tests/wsdl/CMakeLists.txt): Device's hierarchy is compiled in the one code file
// that binds its holders and declared extern in its header, so this file and the other code
// files call that one copy. Every type of it is made, copied, compared, written, read back and
// destroyed from here (ASan: each as its own type).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "features_2.hpp"
#include "lather/bind/bind.hpp"
#include "lather/xml/reader.hpp"
#include "lather/xml/writer.hpp"

namespace {

std::string slurp(const std::string& name) {
  std::ifstream in(std::string(SPLIT_DIR) + "/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(WsdlGeneratedSplit, AHierarchyIsCompiledInTheOneCodeFileThatBindsIt) {
  std::size_t files = 0;
  for (const char* code : {"code_1.cpp", "code_2.cpp", "code_3.cpp"})
    files += occurrences(slurp(code), "LATHER_BIND_POLYMORPHIC_INSTANTIATE(::splitgen::Device);");
  EXPECT_EQ(files, 1u);
}

TEST(WsdlGeneratedSplit, EveryTypeOfAHierarchyCompiledInAnotherFile) {
  splitgen::drawing d;
  d.device.emplace_back().get().label = "device";
  splitgen::Disk& disk = d.device.emplace_back().emplace<splitgen::Disk>();
  disk.label = "disk";
  disk.capacity = 1;
  splitgen::Flash& flash = d.device.emplace_back().emplace<splitgen::Flash>();
  flash.label = "flash";
  flash.cells = 2;
  splitgen::BluRay& spare = flash.spare.emplace().emplace<splitgen::BluRay>();  // held twice
  spare.layers = 3;
  spare.media.emplace_back().kind = "BD-25";
  splitgen::Optical& cd = d.device.emplace_back().emplace<splitgen::Optical>();
  cd.label = "cd";
  cd.media.emplace_back().kind = "CD-R";
  splitgen::BluRay& bd = d.device.emplace_back().emplace<splitgen::BluRay>();
  bd.label = "bd";
  bd.layers = 2;
  bd.media.emplace_back().kind = "BD-50";
  d.slot.emplace().device.emplace<splitgen::Flash>().label = "slot";

  splitgen::drawing copy = d;  // deep copies, each as its type
  EXPECT_EQ(copy.device, d.device);
  EXPECT_EQ(copy.slot, d.slot);
  copy.device[2].get_if<splitgen::Flash>()->spare->get_if<splitgen::BluRay>()->layers = 4;
  EXPECT_NE(copy.device, d.device);

  lather::xml::output out;
  lather::xml::writer w{out};
  lather::bind::write(w, "urn:features", "drawing", d);
  w.end_document();
  const std::string xml = out.take();
  for (const char* type : {"Disk\"", "Flash\"", "Optical\"", "BluRay\""})
    EXPECT_NE(xml.find(std::string(":type=\"ns1:") + type), std::string::npos) << type << xml;

  splitgen::drawing back;
  back.device.emplace_back().emplace<splitgen::Optical>();  // replaced by a Device
  lather::xml::reader r;
  r.reset(xml);
  ASSERT_EQ(r.next(), lather::xml::token::start_element);
  const lather::bind::error_info e = lather::bind::read(r, back);
  ASSERT_FALSE(e) << e.message << "\n" << xml;
  EXPECT_EQ(back.device, d.device);
  EXPECT_EQ(back.slot, d.slot);
  EXPECT_TRUE(back.device[0].holds<splitgen::Device>());
  EXPECT_TRUE(back.device[4].holds<splitgen::BluRay>());
  EXPECT_TRUE(back.slot->device.holds<splitgen::Flash>());
}

}  // namespace
