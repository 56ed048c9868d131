package backup

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/minio/minio-go/v7"

	"salaula/internal/config"
	"salaula/internal/media"
)

// OffSite copies archives to an S3 bucket (SALAULA_BACKUP_S3_BUCKET), away
// from the data's own disk.
type OffSite struct {
	client *minio.Client
	bucket string
}

// offSiteTimeout bounds one archive's upload.
const offSiteTimeout = 30 * time.Minute

// NewOffSite connects to the bucket of cfg (it does not contact it yet).
func NewOffSite(cfg config.S3Config) (*OffSite, error) {
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, errors.New("off-site backups need S3 credentials (SALAULA_BACKUP_S3_ACCESS_KEY and _SECRET_KEY, or SALAULA_S3_*)")
	}
	client, _, err := media.S3Client(cfg)
	if err != nil {
		return nil, fmt.Errorf("off-site backups: %w", err)
	}
	return &OffSite{client: client, bucket: cfg.Bucket}, nil
}

// Upload copies the archive at path to the bucket under backups/NAME
// (in parts, from the file).
func (o *OffSite) Upload(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, offSiteTimeout)
	defer cancel()
	key := "backups/" + filepath.Base(path)
	if _, err := o.client.FPutObject(ctx, o.bucket, key, path, minio.PutObjectOptions{ContentType: "application/gzip"}); err != nil {
		return fmt.Errorf("copy %s to S3 bucket %s: %w", filepath.Base(path), o.bucket, err)
	}
	return nil
}
