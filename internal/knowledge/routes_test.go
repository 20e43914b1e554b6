package knowledge_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// TestRouteOf: registrations of the table and of routers' methods named
// for an HTTP method give where the pattern and the handler are; other
// methods of those routers register nothing.
func TestRouteOf(t *testing.T) {
	for name, want := range map[string]knowledge.Route{
		"(*net/http.ServeMux).HandleFunc":                      {Pattern: 0, Handler: 1},
		"(github.com/go-chi/chi/v5.Router).Get":                {Pattern: 0, Handler: 1, Method: "GET"},
		"(*github.com/gin-gonic/gin.RouterGroup).POST":         {Pattern: 0, Handler: 1, Method: "POST"},
		"(*github.com/labstack/echo/v4.Echo).DELETE":           {Pattern: 0, Handler: 1, Method: "DELETE"},
		"(*github.com/gorilla/mux.Router).HandleFunc":          {Pattern: 0, Handler: 1},
		"(*github.com/julienschmidt/httprouter.Router).GET":    {Pattern: 0, Handler: 1, Method: "GET"},
		"(*github.com/julienschmidt/httprouter.Router).Handle": {Pattern: 1, Handler: 2},
		"(*github.com/prometheus/common/route.Router).Post":    {Pattern: 0, Handler: 1, Method: "POST"},
		"(*github.com/prometheus/common/route.Router).Del":     {Pattern: 0, Handler: 1, Method: "DELETE"},
	} {
		got, ok := knowledge.RouteOf(name)
		assert.True(t, ok, name)
		assert.Equal(t, want, got, name)
	}
	for _, name := range []string{"(github.com/go-chi/chi/v5.Router).Use", "(*github.com/gin-gonic/gin.Engine).Run", "(*github.com/prometheus/common/route.Router).WithPrefix", "(*github.com/julienschmidt/httprouter.Router).ServeFiles", "net/http.ListenAndServe", ""} {
		_, ok := knowledge.RouteOf(name)
		assert.False(t, ok, name)
	}
	_, ok := knowledge.ScheduledFunc("(*github.com/robfig/cron/v3.Cron).AddFunc")
	assert.True(t, ok)
	assert.True(t, knowledge.StartsPeriodic("time.NewTicker"))
	assert.False(t, knowledge.StartsPeriodic("time.NewTimer"))
}
