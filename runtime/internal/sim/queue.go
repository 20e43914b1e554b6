package sim

import "container/heap"

// queue is the simulations' event queue: a min-heap ordered by before.
type queue[E any] struct {
	items  []E
	before func(a, b E) bool
}

func (q *queue[E]) push(e E) { heap.Push(q, e) }
func (q *queue[E]) pop() E   { return heap.Pop(q).(E) }

func (q *queue[E]) Len() int           { return len(q.items) }
func (q *queue[E]) Less(i, j int) bool { return q.before(q.items[i], q.items[j]) }
func (q *queue[E]) Swap(i, j int)      { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *queue[E]) Push(x any)         { q.items = append(q.items, x.(E)) }
func (q *queue[E]) Pop() any {
	e := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return e
}
