typedef struct CUctx_st *CUcontext;
#define NATIVE_API
