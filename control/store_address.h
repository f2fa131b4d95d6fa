// Where a session store is and which one it is: what the window needs of the store it shows, without the
// store itself (its SQLite stays below the views: the loader reads it on its own thread).
#pragma once

#include <filesystem>
#include <string>

namespace scalebench {

class SessionStore;

struct StoreAddress {
    std::filesystem::path file;
    std::string id; // SessionStore::storeId(): names the store's folders where its runs run
};

StoreAddress storeAddress(const SessionStore& store);

} // namespace scalebench
