// Package miniocount sets minio-go's retries at start-up.
package miniocount

import (
	"context"
	"time"

	"github.com/minio/minio-go/v7"
)

func init() { minio.MaxRetry = 2 }

// Stat loops around minio-go's own 2 attempts, as the package set them.
func Stat(ctx context.Context, mc *minio.Client, key string) (info minio.ObjectInfo, err error) {
	for range 3 {
		if info, err = mc.StatObject(ctx, "bucket", key, minio.StatObjectOptions{}); err == nil { // want `retry loop \(3 attempts\) wraps minio.Client.StatObject \(2 attempts\): up to 6 attempts per call`
			return info, nil
		}
		select {
		case <-ctx.Done():
			return info, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return info, err
}
