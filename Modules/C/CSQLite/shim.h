// SQLite 3.
#include <sqlite3.h>
