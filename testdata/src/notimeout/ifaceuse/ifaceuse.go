// Package ifaceuse calls through the interface with a store it is handed:
// the implementations it can see (ifaceimpl, which it imports) say what
// the call reaches.
package ifaceuse

import (
	"context"

	"notimeout/ifacedecl"
	_ "notimeout/ifaceimpl"
)

func Warm(s ifacedecl.Store) error {
	return s.Load(context.Background(), "warm") // want `context.Background\(\) reaches sql.DB.QueryContext \(via ifacedecl.Store.Load -> ifaceimpl.SQLStore.Load -> sql.DB.QueryContext\) with no deadline`
}
