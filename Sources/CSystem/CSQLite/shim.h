#ifndef MART_CSQLITE_SHIM_H
#define MART_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
   These wrappers bind text and blobs that SQLite copies before the call returns, so Swift
   may release its buffer right after. */

static inline int mart_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text) {
  return sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT);
}

static inline int mart_sqlite3_bind_blob_transient(
    sqlite3_stmt *statement, int index, const void *bytes, int count) {
  return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

#endif
