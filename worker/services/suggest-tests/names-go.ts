/**
 * @module worker/services/suggest-tests/names-go
 *
 * Data for fill-verify-go.ts: Go's predeclared identifiers (go.dev/ref/spec#Predeclared_identifiers)
 * and the methods a call on a local value may name without the index defining them: those of
 * testing.T/B/TB (pkg.go.dev/testing) and of the error and Stringer interfaces.
 */

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Predeclared types, constants, zero value and functions, and the blank identifier. */
export const GO_PREDECLARED = words(`
  any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16
  uint32 uint64 uintptr true false iota nil append cap clear close complex copy delete imag len make max min new panic print
  println real recover _
`);

/** Methods of *testing.T / *testing.B / testing.TB and of error / fmt.Stringer values. */
export const GO_BUILTIN_METHODS = words(`
  Cleanup Deadline Error Errorf Fail FailNow Failed Fatal Fatalf Helper Log Logf Name Parallel Run Setenv Skip SkipNow Skipf
  Skipped TempDir Context Chdir ResetTimer StartTimer StopTimer ReportAllocs ReportMetric SetBytes Loop N String Unwrap Is As
`);
