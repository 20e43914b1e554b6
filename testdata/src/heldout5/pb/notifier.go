package pb

import (
	"context"

	"google.golang.org/grpc"
)

const Notifier_SendPush_FullMethodName = "/notify.Notifier/SendPush"

type PushRequest struct {
	DeviceToken string
	Title       string
	Body        string
	Data        map[string]string
}

type PushResponse struct {
	MessageId string
}

// NotifierClient is the client API for the notify.Notifier service.
type NotifierClient interface {
	SendPush(ctx context.Context, in *PushRequest, opts ...grpc.CallOption) (*PushResponse, error)
}

type notifierClient struct {
	cc grpc.ClientConnInterface
}

// heldout: clean — generated constructor, no call made
func NewNotifierClient(cc grpc.ClientConnInterface) NotifierClient {
	return &notifierClient{cc}
}

// heldout: clean — a single Invoke of a Send method, no layer here
func (c *notifierClient) SendPush(ctx context.Context, in *PushRequest, opts ...grpc.CallOption) (*PushResponse, error) {
	out := new(PushResponse)
	err := c.cc.Invoke(ctx, Notifier_SendPush_FullMethodName, in, out, opts...)
	if err != nil {
		return nil, err
	}
	return out, nil
}
