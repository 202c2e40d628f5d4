#include "common/lazy_library.h"

#include <dlfcn.h>

namespace sf {

LazyLibrary::LazyLibrary(std::string soname, std::string package, std::string needed_for)
    : soname_(std::move(soname)), package_(std::move(package)), needed_for_(std::move(needed_for)) {}

Status LazyLibrary::open() {
  // RTLD_LOCAL: the library's symbols serve this table only, as a linked library's would not.
  handle_ = dlopen(soname_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ != nullptr) return Status();
  const char* why = dlerror();
  return Status::Unsupported(needed_for_ + " needs " + soname_ + " (Debian package " + package_ +
                             "), which could not be loaded" + (why != nullptr ? std::string(": ") + why : ""));
}

Result<void*> LazyLibrary::symbol(const char* name) {
  std::call_once(opened_, [this] { open_status_ = open(); });
  if (!open_status_.ok()) return fail(open_status_);
  dlerror();
  void* found = dlsym(handle_, name);
  if (found == nullptr) {
    return fail(Status::Unsupported(needed_for_ + " needs " + name + " from " + soname_ + ", which this " +
                                    "version of the library does not have"));
  }
  return found;
}

}  // namespace sf
