package clients

import (
	"fmt"

	"google.golang.org/grpc"
)

// customersServiceConfig hedges every call to the customers service: its
// tail latency is poor and most of its calls are reads.
const customersServiceConfig = `{
  "methodConfig": [{
    "name": [{"service": "shop.Customers"}],
    "hedgingPolicy": {
      "maxAttempts": 2,
      "hedgingDelay": "0.08s",
      "nonFatalStatusCodes": ["UNAVAILABLE"]
    }
  }]
}`

// DialCustomers returns a connection to the customers service.
//
// heldout: clean — dials a hedging connection, makes no call
func DialCustomers(target string) (*grpc.ClientConn, error) {
	conn, err := grpc.NewClient(target, grpc.WithDefaultServiceConfig(customersServiceConfig))
	if err != nil {
		return nil, fmt.Errorf("dial customers %s: %w", target, err)
	}
	return conn, nil
}
