#ifndef MART_CLIBDEFLATE_SHIM_H
#define MART_CLIBDEFLATE_SHIM_H
// libdeflate: whole-buffer DEFLATE and gzip compression, faster than zlib at the same level and
// a little smaller at level 9. Its gzip header depends on the level alone (no file name,
// modification time 0), so a compressed copy depends on its input alone.
#include <libdeflate.h>
#endif
