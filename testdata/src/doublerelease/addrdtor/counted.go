package addrdtor

// An unref beside another destructor of its type is still the release
// when that destructor takes the object itself (a free that drops a
// reference, as GLib's g_ptr_array_free does), or when the package also
// takes references with the unref's retain (a count of references to the
// object itself).

/*
typedef struct vec { int n; } vec;
vec *vec_new(void);
void vec_unref(vec *v);
char *vec_free(vec *v, int segment);

typedef struct job { int n; } job;
job *job_new(void);
job *job_ref(job *j);
void job_unref(job *j);
void job_free(job **j);
*/
import "C"

// vecs drops one reference twice; elsewhere the package frees a vec.
func vecs() {
	v := C.vec_new()
	C.vec_unref(v)
	C.vec_unref(v) // want `^v is released twice: by C.vec_unref at line 26`
}

func vecFree(v *C.vec) { C.vec_free(v, 1) }

// jobs takes a second reference and drops both: no finding.
func jobs() {
	j := C.job_new()
	k := C.job_ref(j)
	C.job_unref(j)
	C.job_unref(k)
}

// jobTwice drops its one reference twice.
func jobTwice() {
	j := C.job_new()
	C.job_unref(j)
	C.job_unref(j) // want `^j is released twice: by C.job_unref at line 43`
}

func jobEnd(j *C.job) { C.job_free(&j) }
