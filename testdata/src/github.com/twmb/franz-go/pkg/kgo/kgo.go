// Package kgo is a stub of franz-go's Kafka client: a record is produced
// until it is delivered, or RecordRetries times.
package kgo

import "context"

type Opt interface{ apply() }

type ProducerOpt interface {
	Opt
	producer()
}

type producerOpt struct{ n int }

func (producerOpt) apply()    {}
func (producerOpt) producer() {}

func RecordRetries(n int) ProducerOpt { return producerOpt{n} }

func SeedBrokers(seeds ...string) Opt { return producerOpt{} }

type Client struct{}

func NewClient(opts ...Opt) (*Client, error) { return &Client{}, nil }

type Record struct {
	Topic string
	Value []byte
}

type ProduceResult struct {
	Record *Record
	Err    error
}

type ProduceResults []ProduceResult

func (rs ProduceResults) FirstErr() error {
	for _, r := range rs {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

func (cl *Client) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults { return nil }
