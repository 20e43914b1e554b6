// Package grpc is a stub of google.golang.org/grpc: the signatures
// resilvet's tables name, nothing more.
package grpc

import "context"

type CallOption interface{}
type DialOption interface{}

type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error
type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error

type ClientStream interface{}
type StreamDesc struct{}

// ClientConnInterface is what generated clients hold.
type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
	NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error)
}

type ClientConn struct{}

func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return nil, nil
}

func (cc *ClientConn) Close() error { return nil }

func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }
func Dial(target string, opts ...DialOption) (*ClientConn, error)      { return &ClientConn{}, nil }
func DialContext(ctx context.Context, target string, opts ...DialOption) (*ClientConn, error) {
	return &ClientConn{}, nil
}
func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption          { return nil }
func WithChainUnaryInterceptor(fs ...UnaryClientInterceptor) DialOption { return nil }
func WithDefaultServiceConfig(s string) DialOption                      { return nil }
func WithAuthority(a string) DialOption                                 { return nil }

type Server struct{}

func NewServer() *Server { return &Server{} }

func (s *Server) Serve(l any) error { return nil }

// ServiceRegistrar is what generated Register…Server functions take.
type ServiceRegistrar interface {
	RegisterService(desc any, impl any)
}

func (s *Server) RegisterService(desc any, impl any) {}
