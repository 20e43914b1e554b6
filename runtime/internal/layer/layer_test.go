package layer_test

import (
	"context"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/layer"
)

// marked is a layer's context: it answers Key with its deposit.
type marked struct {
	context.Context
	d layer.Deposit
}

func (m *marked) Value(key any) any {
	if key == layer.Key {
		return &m.d
	}
	return m.Context.Value(key)
}

func newMarked(parent context.Context, b any) *marked {
	m := &marked{Context: parent}
	m.d.Set(parent, b)
	return m
}

type ptrBudget struct{ _ byte } // not zero-sized: distinct values have distinct addresses

// sliceBudget is uncomparable: comparing two interfaces holding it panics.
type sliceBudget []int

func TestDeposited(t *testing.T) {
	a, b := &ptrBudget{}, &ptrBudget{}
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	outer := newMarked(parent, a)
	inner := newMarked(outer, b)
	if !layer.Deposited(inner, a) || !layer.Deposited(inner, b) || !layer.Deposited(outer, a) || layer.Deposited(outer, b) {
		t.Fatal("a deposit must be seen from its layer and the layers inside, not from outside")
	}
	if layer.Deposited(parent, a) || layer.Deposited(inner, nil) {
		t.Fatal("no deposit outside the layers, none for a nil budget")
	}
	s := sliceBudget{1}
	withSlice := newMarked(parent, s)
	if layer.Deposited(withSlice, sliceBudget{1}) {
		t.Fatal("an uncomparable budget cannot be matched (and must not panic)")
	}
}

func TestDetachedContextsStartOver(t *testing.T) {
	a := &ptrBudget{}
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	m := newMarked(parent, a)
	shorter, cancelShorter := context.WithTimeout(m, time.Minute)
	defer cancelShorter()
	if !layer.Deposited(shorter, a) {
		t.Fatal("a derived context with a shorter deadline belongs to the same request")
	}
	if layer.Deposited(context.WithoutCancel(m), a) {
		t.Fatal("WithoutCancel starts a new logical request")
	}
	longer, cancelLonger := context.WithTimeout(context.WithoutCancel(m), 2*time.Hour)
	defer cancelLonger()
	if layer.Deposited(longer, a) {
		t.Fatal("a detached context with a later deadline starts a new logical request")
	}
}
