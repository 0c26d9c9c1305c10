/* An opaque, reference-counted type, as GLib's GVariant is to Go: cgo
   wraps each call that passes a pointer to it in a function literal. */
typedef struct Blob Blob;
Blob *blob_new(void);
Blob *blob_ref(Blob *b);
void blob_unref(Blob *b);
