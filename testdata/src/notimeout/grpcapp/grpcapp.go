// Package grpcapp calls a generated gRPC client through its interface.
package grpcapp

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"notimeout/orderspb"
)

func poll(conn *grpc.ClientConn) {
	client := orderspb.NewOrdersClient(conn)
	client.GetOrder(context.Background(), &orderspb.GetOrderRequest{}) // want `context.Background\(\) reaches grpc.ClientConnInterface.Invoke \(via orderspb.OrdersClient.GetOrder -> orderspb.ordersClient.GetOrder -> grpc.ClientConnInterface.Invoke\) with no deadline`
}

func pollBounded(conn *grpc.ClientConn) {
	client := orderspb.NewOrdersClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	client.GetOrder(ctx, &orderspb.GetOrderRequest{})
}

func direct(conn *grpc.ClientConn) {
	conn.Invoke(context.TODO(), "/x", nil, nil) // want `context.TODO\(\) reaches grpc.ClientConn.Invoke with no deadline`
}

// Streams live as long as their connection by design: not judged.
func watch(conn *grpc.ClientConn) {
	conn.NewStream(context.Background(), &grpc.StreamDesc{}, "/orders.Orders/Watch")
}

// Methods that block until an event by design (containerd's Tasks/Wait
// returns when the process exits) are ended by their caller's context,
// not by a timeout: not reported.
func waitExit(conn *grpc.ClientConn) {
	conn.Invoke(context.Background(), "/containerd.services.tasks.v1.Tasks/Wait", nil, nil)
	conn.Invoke(context.Background(), "/svc.Jobs/WaitForCompletion", nil, nil)
	conn.Invoke(context.Background(), "/svc.Jobs/AwaitResult", nil, nil)
}

// Only the name decides, and only as a whole word.
func notAWait(conn *grpc.ClientConn, method string) {
	conn.Invoke(context.Background(), "/svc.Jobs/Waiter", nil, nil) // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
	conn.Invoke(context.Background(), method, nil, nil)             // want `context.Background\(\) reaches grpc.ClientConn.Invoke with no deadline`
}
