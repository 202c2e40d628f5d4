// Libraries opened on first use (common/lazy_library.h): a missing library or function is an error
// that says what needed it and which package installs it; a present one gives working functions.
#include "common/lazy_library.h"

#include <gtest/gtest.h>

#include <string>

#include "io/archive_library.h"

namespace sf {
namespace {

TEST(LazyLibrary, AMissingLibraryIsAnErrorNamingItAndItsPackage) {
  LazyLibrary library("libsf-no-such-library.so.7", "sf-no-such-package", "Reading the moon");
  for (int call = 0; call < 2; ++call) {  // the second call gives the same error without trying again
    auto symbol = library.symbol("moon_open");
    ASSERT_FALSE(symbol.has_value());
    EXPECT_EQ(symbol.error().code(), StatusCode::kUnsupported);
    const std::string& message = symbol.error().message();
    EXPECT_NE(message.find("Reading the moon needs libsf-no-such-library.so.7"), std::string::npos) << message;
    EXPECT_NE(message.find("Debian package sf-no-such-package"), std::string::npos) << message;
  }
}

TEST(LazyLibrary, AMissingFunctionIsAnErrorNamingIt) {
  LazyLibrary library("libc.so.6", "libc6", "Testing");
  ASSERT_TRUE(library.symbol("strlen").has_value());
  auto missing = library.symbol("sf_no_such_function");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("sf_no_such_function from libc.so.6"), std::string::npos)
      << missing.error().message();
}

struct MoonFunctions {
  int (*open)() = nullptr;
};

TEST(LazyLibrary, ATableOfAMissingLibraryKeepsItsError) {
  LazyLibrary library("libsf-no-such-library.so.7", "sf-no-such-package", "Reading the moon");
  auto fill = [](MoonFunctions& table, LazyLibrary& lib) -> Status {
    auto found = lib.symbol("moon_open");
    if (!found) return found.error();
    table.open = reinterpret_cast<int (*)()>(*found);
    return Status();
  };
  auto first = load_functions<MoonFunctions>(library, fill);
  ASSERT_FALSE(first.has_value());
  EXPECT_NE(first.error().message().find("libsf-no-such-library.so.7"), std::string::npos);
  EXPECT_FALSE(load_functions<MoonFunctions>(library, fill).has_value());
}

TEST(LazyLibrary, LibarchiveLoadsWithEveryFunctionTheProgramCalls) {
  auto la = io::libarchive();
  ASSERT_TRUE(la.has_value()) << la.error().message();
  archive* reader = (*la)->read_new();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ((*la)->read_support_format_zip(reader), ARCHIVE_OK);
  EXPECT_EQ((*la)->read_free(reader), ARCHIVE_OK);
  EXPECT_EQ(*la, *io::libarchive()) << "loaded once, the same table after";
}

}  // namespace
}  // namespace sf
