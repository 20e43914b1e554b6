// Package sdks holds retry layers inside client SDKs: go-redis and the
// AWS SDK retry each command themselves.
package sdks

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/minio/minio-go/v7"
	"github.com/redis/go-redis/v9"
)

type Cache struct {
	rdb  *redis.Client
	none *redis.Client
	s3   *s3.Client
}

func NewCache() *Cache {
	return &Cache{
		rdb:  redis.NewClient(&redis.Options{Addr: "cache:6379"}),
		none: redis.NewClient(&redis.Options{Addr: "cache:6379", MaxRetries: -1}),
	}
}

// Probe waits for the cache at start-up: 19 attempts around go-redis's
// own 4.
func (c *Cache) Probe(ctx context.Context) error {
	var err error
	for i := 0; i < 19; i++ {
		if err = c.rdb.Ping(ctx).Err(); err == nil { // want `retry loop \(19 attempts\) wraps redis.Client.Ping \(4 attempts\): up to 76 attempts per call; the client already retries: make this layer a single attempt, or turn the client's retries off`
			return nil
		}
		pause(ctx)
	}
	return err
}

// ProbeNoRetries: the client makes one attempt (MaxRetries -1).
func (c *Cache) ProbeNoRetries(ctx context.Context) error {
	var err error
	for i := 0; i < 19; i++ {
		if err = c.none.Ping(ctx).Err(); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Lookup reads through an interface: the client behind it is not known
// here, so its count is not either.
func Lookup(ctx context.Context, rdb redis.Cmdable, key string) (string, error) {
	var err error
	for i := 0; i < 3; i++ {
		var v string
		if v, err = rdb.Get(ctx, key).Result(); err == nil { // want `retry loop \(3 attempts\) wraps redis.Cmdable.Get \(attempts set at run time\): attempts multiply`
			return v, nil
		}
		pause(ctx)
	}
	return "", err
}

// Fetch retries an S3 read whose SDK retries 3 times itself.
func (c *Cache) Fetch(ctx context.Context, in *s3.GetObjectInput) (*s3.GetObjectOutput, error) {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var out *s3.GetObjectOutput
		if out, err = c.s3.GetObject(ctx, in); err == nil { // want `retry loop \(2 attempts\) wraps s3.Client.GetObject \(3 attempts\): up to 6 attempts per call`
			return out, nil
		}
		pause(ctx)
	}
	return nil, err
}

// HotRedis retries at once.
func (c *Cache) HotRedis(ctx context.Context) (string, error) {
	var err error
	for i := 0; i < 3; i++ {
		var v string
		if v, err = c.none.Get(ctx, "k").Result(); err == nil { // want `retry loop around redis.Client.Get tries again at once`
			return v, nil
		}
	}
	return "", err
}

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}

// Stat retries a minio request, which minio-go retries 10 times itself.
func Stat(ctx context.Context, mc *minio.Client, key string) (minio.ObjectInfo, error) {
	var err error
	for i := 0; i < 3; i++ {
		var info minio.ObjectInfo
		if info, err = mc.StatObject(ctx, "bucket", key, minio.StatObjectOptions{}); err == nil { // want `retry loop \(3 attempts\) wraps minio.Client.StatObject \(10 attempts\): up to 30 attempts per call`
			return info, nil
		}
		pause(ctx)
	}
	return minio.ObjectInfo{}, err
}
