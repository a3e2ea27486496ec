#ifndef MART_CSQLITE_SHIM_H
#define MART_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
