package grpcx

import (
	"io"
	"sync"

	"google.golang.org/grpc"
)

// endingStream calls end once when its stream is over as gRPC defines it:
// RecvMsg returned an error (io.EOF included), or SendMsg an error other
// than io.EOF. A stream abandoned before that ends with its context.
type endingStream struct {
	grpc.ClientStream
	end  func()
	once sync.Once
}

func (s *endingStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err != nil {
		s.once.Do(s.end)
	}
	return err
}

func (s *endingStream) SendMsg(m any) error {
	err := s.ClientStream.SendMsg(m)
	if err != nil && err != io.EOF {
		s.once.Do(s.end)
	}
	return err
}
