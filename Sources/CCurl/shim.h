// libcurl, for energyclock-fetch alone: the daemon makes its transfers through that helper and
// never links libcurl.
#include <curl/curl.h>
