// RAII owners for SQLite handles, and the error that carries SQLite's own message.
#pragma once

#include <memory>
#include <sqlite3.h>
#include <stdexcept>
#include <string>

namespace scalebench {

class StoreError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct SqliteCloser {
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct SqliteFinalizer {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using SqliteDatabase = std::unique_ptr<sqlite3, SqliteCloser>;
using SqliteStatement = std::unique_ptr<sqlite3_stmt, SqliteFinalizer>;

} // namespace scalebench
