package knowledge

import "strings"

// Route says how a call registers an HTTP handler: which argument is the
// pattern, which the handler, and the method when the function's name
// gives it (chi's Get, gin's and echo's GET). Read by the resilience
// map's entry points.
type Route struct {
	Pattern, Handler int    // argument indexes (receiver excluded)
	Method           string // "" when the pattern or nothing says it
}

// routes are the handler registrations, by full name.
var routes = map[string]Route{
	"net/http.Handle":                              {0, 1, ""},
	"net/http.HandleFunc":                          {0, 1, ""},
	"(*net/http.ServeMux).Handle":                  {0, 1, ""},
	"(*net/http.ServeMux).HandleFunc":              {0, 1, ""},
	"(*github.com/gorilla/mux.Router).Handle":      {0, 1, ""},
	"(*github.com/gorilla/mux.Router).HandleFunc":  {0, 1, ""},
	"(github.com/go-chi/chi/v5.Router).Handle":     {0, 1, ""},
	"(github.com/go-chi/chi/v5.Router).HandleFunc": {0, 1, ""},
	"(*github.com/go-chi/chi/v5.Mux).Handle":       {0, 1, ""},
	"(*github.com/go-chi/chi/v5.Mux).HandleFunc":   {0, 1, ""},
	// httprouter's Handle takes the method first.
	"(*github.com/julienschmidt/httprouter.Router).Handle":      {1, 2, ""},
	"(*github.com/julienschmidt/httprouter.Router).Handler":     {1, 2, ""},
	"(*github.com/julienschmidt/httprouter.Router).HandlerFunc": {1, 2, ""},
	// Prometheus's router (Prometheus, Alertmanager) names two methods
	// its own way.
	"(*github.com/prometheus/common/route.Router).Del":   {0, 1, "DELETE"},
	"(*github.com/prometheus/common/route.Router).Query": {0, 1, "QUERY"},
}

// routeMethods are the routers whose methods are named for the HTTP
// method they register (chi's Get, gin's, echo's and httprouter's GET,
// Prometheus's route.Router's Get), by the
// receiver's type as in a full name.
var routeMethods = []string{
	"(github.com/go-chi/chi/v5.Router).",
	"(*github.com/go-chi/chi/v5.Mux).",
	"(*github.com/gin-gonic/gin.RouterGroup).",
	"(*github.com/gin-gonic/gin.Engine).",
	"(*github.com/labstack/echo/v4.Echo).",
	"(*github.com/labstack/echo/v4.Group).",
	"(*github.com/julienschmidt/httprouter.Router).",
	"(*github.com/prometheus/common/route.Router).",
}

var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE"}

// RouteOf returns how the function of the full name registers an HTTP
// handler, if it does.
func RouteOf(fullName string) (Route, bool) {
	if r, ok := routes[fullName]; ok {
		return r, true
	}
	for _, recv := range routeMethods {
		name, ok := strings.CutPrefix(fullName, recv)
		if !ok {
			continue
		}
		for _, m := range httpMethods {
			if strings.EqualFold(name, m) {
				return Route{Pattern: 0, Handler: 1, Method: m}, true
			}
		}
	}
	return Route{}, false
}

// periodicStarts are the calls that make a function a periodic job: the
// function that makes a ticker runs its work on it.
var periodicStarts = map[string]bool{
	"time.Tick":      true,
	"time.NewTicker": true,
}

// StartsPeriodic reports whether a call of the full name makes its
// function a periodic job.
func StartsPeriodic(fullName string) bool { return periodicStarts[fullName] }

// scheduledFuncs are the schedulers that run a function on a schedule,
// with the argument index of the function.
var scheduledFuncs = map[string]int{
	"(*github.com/robfig/cron/v3.Cron).AddFunc": 1,
	"(*github.com/robfig/cron.Cron).AddFunc":    1,
}

// ScheduledFunc returns the argument index of the function a scheduler's
// call runs periodically.
func ScheduledFunc(fullName string) (int, bool) {
	i, ok := scheduledFuncs[fullName]
	return i, ok
}
