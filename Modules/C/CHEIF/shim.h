// libheif: HEIF/HEIC decoding (libde265).
#include <libheif/heif.h>
