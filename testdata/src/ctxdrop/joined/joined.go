// Package joined holds goroutines whose closures capture no context: the
// function that starts them waits for them, so their work is its own,
// and so is its context.
package joined

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"golang.org/x/sync/errgroup"
)

type Store struct{ coll *mongo.Collection }

func (s *Store) Save(ctx context.Context, doc string) error {
	s.coll.FindOne(ctx, doc)
	return nil
}

func (s *Store) SaveAll(ctx context.Context, docs []string) {
	var wg sync.WaitGroup
	for _, d := range docs {
		wg.Add(1)
		go func(d string) {
			defer wg.Done()
			s.Save(context.Background(), d) // want `context.Background\(\) passed to joined.Store.Save while ctx is available`
		}(d)
	}
	wg.Wait()
}

func (s *Store) SaveAllGo(ctx context.Context, docs []string) {
	var wg sync.WaitGroup
	for _, d := range docs {
		wg.Go(func() {
			s.Save(context.TODO(), d) // want `context.TODO\(\) passed to joined.Store.Save while ctx is available`
		})
	}
	wg.Wait()
}

func (s *Store) SaveAllGroup(ctx context.Context, docs []string) error {
	var g errgroup.Group
	for _, d := range docs {
		g.Go(func() error {
			return s.Save(context.Background(), d) // want `context.Background\(\) passed to joined.Store.Save while ctx is available`
		})
	}
	return g.Wait()
}

// ok: nobody waits for the goroutines; they outlive the call, and a
// fresh context is deliberate (notimeout's business if it has no bound).
func (s *Store) SaveLater(ctx context.Context, docs []string) {
	for _, d := range docs {
		go func(d string) {
			s.Save(context.Background(), d)
		}(d)
	}
}

// ok: the function waits, but the closure is not a goroutine it starts:
// it is handed to a callback of unknown lifetime.
func (s *Store) SaveOnEvent(ctx context.Context, on func(func()), doc string) {
	var wg sync.WaitGroup
	on(func() {
		s.Save(context.Background(), doc)
	})
	wg.Wait()
}

// An outbound call of the knowledge table uses its context whatever the
// body in sight does with it (this stub's FindOne ignores it).
func (s *Store) Find(ctx context.Context, id string) {
	s.coll.FindOne(context.TODO(), id) // want `context.TODO\(\) passed to mongo.Collection.FindOne while ctx is available`
}
