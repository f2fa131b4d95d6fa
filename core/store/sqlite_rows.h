// The store's way with SQLite rows: binding values to a statement, reading its rows, and a text column's
// every byte. Shared by the session store's parts (session_store.cpp, session_schema.cpp,
// session_records.cpp); nothing else includes it.
#pragma once

#include <cstdint>
#include <optional>
#include <sqlite3.h>
#include <string>
#include <type_traits>
#include <vector>

namespace scalebench::sqlite_rows {

// All of the column's bytes: a text may hold NUL (a plan's name written "\u0000"), where a C string would
// end.
inline std::string columnText(sqlite3_stmt* s, int column) {
    const unsigned char* text = sqlite3_column_text(s, column);
    return text ? std::string(reinterpret_cast<const char*>(text),
                              static_cast<std::size_t>(sqlite3_column_bytes(s, column)))
                : "";
}

// Binds the values to ?1, ?2, ... of a prepared statement.
template <typename... Values> void bindAll(sqlite3_stmt* s, const Values&... values) {
    int index = 0;
    auto bind = [&](const auto& v) {
        ++index;
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>)
            sqlite3_bind_text(s, index, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        else if constexpr (std::is_floating_point_v<T>)
            sqlite3_bind_double(s, index, v);
        else if constexpr (std::is_same_v<T, std::optional<double>>)
            v ? sqlite3_bind_double(s, index, *v) : sqlite3_bind_null(s, index);
        else if constexpr (std::is_same_v<T, std::optional<std::string>>)
            v ? sqlite3_bind_text(s, index, v->c_str(), static_cast<int>(v->size()), SQLITE_TRANSIENT)
              : sqlite3_bind_null(s, index);
        else
            sqlite3_bind_int64(s, index, static_cast<sqlite3_int64>(v));
    };
    (bind(values), ...);
}

// Steps a prepared statement, its values bound, through its result rows: read_row(statement) makes each Row.
template <typename Row, typename ReadRow> std::vector<Row> readRows(sqlite3_stmt* s, ReadRow read_row) {
    std::vector<Row> rows;
    while (sqlite3_step(s) == SQLITE_ROW)
        rows.push_back(read_row(s));
    return rows;
}

} // namespace scalebench::sqlite_rows
