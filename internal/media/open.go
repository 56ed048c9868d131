package media

import (
	"salaula/internal/config"
)

// Open returns the S3 store when s3.Bucket is set, else a Local store in dir.
func Open(s3 config.S3Config, dir string) (Store, error) {
	if s3.Bucket != "" {
		return NewS3(s3)
	}
	return NewLocal(dir)
}
