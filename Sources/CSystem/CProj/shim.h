#ifndef MART_CPROJ_SHIM_H
#define MART_CPROJ_SHIM_H
#include <proj.h>

/* PROJ (libproj) behind typed wrappers: PJ_COORD is a C union, which Swift reads awkwardly, so
   the wrapper takes and returns plain doubles. */

/* Transforms one point forward with `transformation`, a PJ made by proj_create_crs_to_crs and
   normalized for visualization (easting/longitude first). Returns 0 on success, or PROJ's error
   number (proj_errno) when the point cannot be transformed; `out_x`/`out_y` are then HUGE_VAL. */
static inline int mart_proj_transform(PJ *transformation, double x, double y, double *out_x, double *out_y) {
  proj_errno_reset(transformation);
  PJ_COORD input = proj_coord(x, y, 0, 0);
  PJ_COORD output = proj_trans(transformation, PJ_FWD, input);
  *out_x = output.xy.x;
  *out_y = output.xy.y;
  return proj_errno(transformation);
}
#endif
