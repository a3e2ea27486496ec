#ifndef MART_CLIBDEFLATE_SHIM_H
#define MART_CLIBDEFLATE_SHIM_H
// libdeflate: whole-buffer gzip compression, smaller and faster than zlib's at the levels the
// pipeline uses. Its gzip header depends on the level alone (no file name, modification time 0),
// so a compressed copy depends on its input alone.
#include <libdeflate.h>
#endif
