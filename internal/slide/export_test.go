package slide

// SetMaxChunkPixels lowers the tile size limit for a test and returns a
// function restoring it.
func SetMaxChunkPixels(n int) func() {
	old := maxChunkPixels
	maxChunkPixels = n
	return func() { maxChunkPixels = old }
}
