// OpenSSL, SQLite and hiredis are opened on first use, as CCodecLoader opens the codecs: a
// process that hashes, signs, keeps a disk cache or talks to Redis loads them then, and one
// that only converts a file never maps them. The functions Osprey calls from them are defined
// here as forwarders with the libraries' own names; CCrypto, CSQLite and CHiredis give the headers.
#ifndef OSPREY_CLIBRARYLOADER_H
#define OSPREY_CLIBRARYLOADER_H

/// 1 when libcrypto is loaded (loading it on the first call), 0 when it cannot be.
int osp_crypto_available(void);
/// 1 when libssl is loaded (loading it on the first call), 0 when it cannot be.
int osp_ssl_available(void);
/// 1 when libsqlite3 is loaded (loading it on the first call), 0 when it cannot be.
int osp_sqlite_available(void);
/// 1 when libhiredis is loaded (loading it on the first call), 0 when it cannot be.
int osp_hiredis_available(void);
/// Why the library could not be loaded (dlerror's message), or NULL when it was.
const char *osp_crypto_load_error(void);
const char *osp_ssl_load_error(void);
const char *osp_sqlite_load_error(void);
const char *osp_hiredis_load_error(void);

#endif
