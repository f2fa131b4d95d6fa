// Leaves a store file as an older or a newer scalebench would: SQL run on it with SQLite itself.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <sqlite3.h>

namespace scalebench {

// Runs sql on the store file with SQLite itself, behind the store's back: to leave the file as an older or a
// newer scalebench would.
inline void rewriteStore(const std::filesystem::path& file, const char* sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    const int result = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    sqlite3_close(db);
    REQUIRE(result == SQLITE_OK);
}

} // namespace scalebench

// SQL that takes a store of the current schema back to an older version, one step each (the newest
// first).
// UNDO_SCHEMA_6 takes it back to version 5: the evals of versions 1-5, no tokens/s, FLOPs/s or MFU.
#define UNDO_SCHEMA_12                                                                                       \
    "DROP INDEX runs_by_source; ALTER TABLE runs DROP COLUMN source_digest; "                                \
    "CREATE TABLE evals_v11 (run_id INTEGER NOT NULL, step INTEGER NOT NULL, metric TEXT NOT NULL, "         \
    "value REAL NOT NULL, loss REAL NOT NULL, elapsed_s REAL NOT NULL, PRIMARY KEY (run_id, step)) "         \
    "WITHOUT ROWID; INSERT OR REPLACE INTO evals_v11 SELECT * FROM evals; DROP TABLE evals; "                \
    "ALTER TABLE evals_v11 RENAME TO evals; "
#define UNDO_SCHEMA_11 UNDO_SCHEMA_12 "ALTER TABLE runs DROP COLUMN record; "
#define UNDO_SCHEMA_10 UNDO_SCHEMA_11 "DROP TABLE device_checks; DROP TABLE device_check_items; "
#define UNDO_SCHEMA_9 UNDO_SCHEMA_10 "DROP TABLE bucket_times; "
#define UNDO_SCHEMA_8                                                                                        \
    UNDO_SCHEMA_9                                                                                            \
    "ALTER TABLE collectives DROP COLUMN tool; ALTER TABLE collectives DROP COLUMN checked; "
#define UNDO_SCHEMA_7                                                                                        \
    UNDO_SCHEMA_8                                                                                            \
    "DROP TABLE store_identity; DROP TABLE run_attempts; ALTER TABLE sessions DROP COLUMN uuid; "            \
    "ALTER TABLE sessions DROP COLUMN owner; ALTER TABLE runs DROP COLUMN attempt; "
#define UNDO_SCHEMA_6                                                                                        \
    UNDO_SCHEMA_7                                                                                            \
    "ALTER TABLE steps DROP COLUMN tokens_per_s; ALTER TABLE steps DROP COLUMN model_flops_per_s; "          \
    "ALTER TABLE steps DROP COLUMN mfu; DROP TABLE evals; "                                                  \
    "CREATE TABLE evals (run_id INTEGER NOT NULL, step INTEGER NOT NULL, accuracy REAL NOT NULL, "           \
    "loss REAL NOT NULL, elapsed_s REAL NOT NULL, PRIMARY KEY (run_id, step)) WITHOUT ROWID; "
