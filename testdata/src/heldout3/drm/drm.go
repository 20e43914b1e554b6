// Package drm is the client of the license and key services.
package drm

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// LicenseRequest asks for a playback license.
type LicenseRequest struct {
	ContentID string
	UserID    string
	Policy    string
}

// License is a signed license.
type License struct {
	Blob    []byte
	Expires time.Time
}

// Client calls the license service.
type Client struct {
	cc *grpc.ClientConn
}

// New connects to the license service (lazily: grpc.NewClient does no I/O).
// heldout: clean — constructor, no call
func New(target string) (*Client, error) {
	cc, err := grpc.NewClient(target)
	if err != nil {
		return nil, err
	}
	return &Client{cc: cc}, nil
}

// IssueLicense asks for a license.
// heldout: clean — the caller's context reaches Invoke
func (c *Client) IssueLicense(ctx context.Context, req *LicenseRequest) (*License, error) {
	out := new(License)
	if err := c.cc.Invoke(ctx, "/drm.v1.Licenses/Issue", req, out); err != nil {
		return nil, err
	}
	return out, nil
}

// CheckEntitlement asks whether a user may play a title, retrying twice.
// heldout: clean — each attempt is bounded by a timeout derived from ctx; the backoff waits on ctx.Done
func (c *Client) CheckEntitlement(ctx context.Context, userID, contentID string) (bool, error) {
	req := &LicenseRequest{ContentID: contentID, UserID: userID}
	var resp struct{ Allowed bool }
	backoff := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := c.cc.Invoke(actx, "/drm.v1.Entitlements/Check", req, &resp)
		cancel()
		if err == nil || attempt == 2 {
			return resp.Allowed, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

// RevokeAll revokes every license of a title.
// heldout: notimeout — context.Background() reaches Invoke on a connection with no timeout interceptor
func (c *Client) RevokeAll(contentID string) error {
	return c.cc.Invoke(context.Background(), "/drm.v1.Licenses/RevokeAll", &LicenseRequest{ContentID: contentID}, new(struct{}))
}

// WaitForRotation blocks until the key service rotates a content key.
// heldout: clean — a unary WaitFor… method blocks until an event by design; no deadline wanted
func (c *Client) WaitForRotation(keyID string) error {
	return c.cc.Invoke(context.Background(), "/drm.v1.Keys/WaitForRotation", &struct{ KeyID string }{keyID}, new(struct{}))
}

// Close closes the connection.
// heldout: clean — no outbound call
func (c *Client) Close() error { return c.cc.Close() }

// KeyClient calls the key service; every call is bounded by an interceptor.
type KeyClient struct {
	cc *grpc.ClientConn
}

// timeoutInterceptor gives every unary call a deadline.
// heldout: clean — derives a bounded context from the call's own
func timeoutInterceptor(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// NewKeyClient connects to the key service with a 5 s per-call deadline.
// heldout: clean — constructor; installs the timeout interceptor
func NewKeyClient(target string) (*KeyClient, error) {
	cc, err := grpc.NewClient(target, grpc.WithUnaryInterceptor(timeoutInterceptor(5*time.Second)))
	if err != nil {
		return nil, err
	}
	return &KeyClient{cc: cc}, nil
}

// RotateKeys asks the key service to rotate a content key.
// heldout: clean — context.Background() but the connection's interceptor sets a 5 s deadline
func (k *KeyClient) RotateKeys(keyID string) error {
	return k.cc.Invoke(context.Background(), "/drm.v1.Keys/Rotate", &struct{ KeyID string }{keyID}, new(struct{}))
}
