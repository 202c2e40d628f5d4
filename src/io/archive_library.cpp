#include "io/archive_library.h"

namespace sf::io {

Result<const ArchiveFunctions*> libarchive() {
  static LazyLibrary libarchive13(SF_LIBARCHIVE_SONAME, "libarchive13", "A zip of event logs");
  return load_functions<ArchiveFunctions>(libarchive13, [](ArchiveFunctions& table, LazyLibrary& library) -> Status {
    SF_ARCHIVE_FUNCTIONS(SF_LAZY_LOAD)
    return Status();
  });
}

}  // namespace sf::io
