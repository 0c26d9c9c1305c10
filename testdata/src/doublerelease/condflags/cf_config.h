/* the package's configuration header */
#define CF_HAVE_QUEUE 1
