// libavif, libheif and libjxl, with their codecs and thread pools, are about 25 shared libraries: linked
// normally they load into every process that links Osprey, whether it meets an AVIF or not.
// This target defines the functions Osprey calls from them as forwarders that load the
// library with dlopen the first time one is asked for, as libvips loads its HEIF module.
#ifndef OSPREY_CCODECLOADER_H
#define OSPREY_CCODECLOADER_H

/// 1 when libavif is loaded (loading it on the first call), 0 when it cannot be.
int osp_avif_available(void);
/// 1 when libheif is loaded (loading it on the first call), 0 when it cannot be.
int osp_heif_available(void);
/// 1 when libjxl is loaded (loading it on the first call), 0 when it cannot be.
int osp_jxl_available(void);
/// 1 when libjxl's thread pool (libjxl_threads) is loaded, 0 when it cannot be.
int osp_jxl_threads_available(void);
/// Why the library could not be loaded (dlerror's message), or NULL when it was.
const char *osp_avif_load_error(void);
const char *osp_heif_load_error(void);
const char *osp_jxl_load_error(void);
const char *osp_jxl_threads_load_error(void);

#endif
