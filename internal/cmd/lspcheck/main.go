// Command lspcheck drives a gopls binary over the Language Server Protocol
// the way an editor does, with given settings, and prints the diagnostics
// gopls publishes for one file as "source: message" lines. CI uses it to
// check that gopls's "analyses" setting turns each resilvet analyzer on
// and off by name, which gopls's command line cannot express.
//
//	go run ./internal/cmd/lspcheck -gopls bin/gopls-resilvet -settings '{"analyses":{"ctxdrop":false}}' examples/checkout/checkout.go
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

var (
	gopls    = flag.String("gopls", "gopls", "gopls binary")
	settings = flag.String("settings", "{}", "gopls settings as JSON (initializationOptions)")
	wait     = flag.Duration("wait", 90*time.Second, "how long to wait for diagnostics")
	settle   = flag.Duration("settle", 10*time.Second, "quiet time after the last report before answering")
	until    = flag.String("until", "", "answer as soon as a diagnostic from this source (analyzer) arrives")
)

func main() {
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: lspcheck [-gopls bin] [-settings json] file.go")
		os.Exit(2)
	}
	file, err := filepath.Abs(flag.Arg(0))
	check(err)
	text, err := os.ReadFile(file)
	check(err)
	var opts any
	check(json.Unmarshal([]byte(*settings), &opts))
	root, err := os.Getwd()
	check(err)

	cmd := exec.Command(*gopls, "serve")
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	cmd.Stderr = os.Stderr
	check(cmd.Start())
	defer cmd.Process.Kill()

	c := &conn{w: in, r: bufio.NewReader(out)}
	uri := "file://" + file
	c.send(1, "initialize", map[string]any{
		"processId":             os.Getpid(),
		"rootUri":               "file://" + root,
		"capabilities":          map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{}}},
		"initializationOptions": opts,
		"workspaceFolders":      []map[string]any{{"uri": "file://" + root, "name": "root"}},
	})
	c.send(0, "initialized", map[string]any{})
	c.send(0, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": string(text),
	}})

	// gopls publishes type-check diagnostics first and analysis results
	// later; keep the last report for the file until it settles.
	deadline := time.Now().Add(*wait)
	var last []diagnostic
	seen := false
	settled := time.Time{}
	msgs := make(chan message)
	go func() {
		for {
			m, err := c.read()
			if err != nil {
				close(msgs)
				return
			}
			msgs <- m
		}
	}()
	for time.Now().Before(deadline) {
		select {
		case m, ok := <-msgs:
			if !ok {
				fmt.Fprintln(os.Stderr, "lspcheck: gopls exited")
				os.Exit(1)
			}
			if m.ID != nil && m.Method != "" {
				c.reply(m.ID) // workspace/configuration and friends
				continue
			}
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p struct {
				URI         string       `json:"uri"`
				Diagnostics []diagnostic `json:"diagnostics"`
			}
			check(json.Unmarshal(m.Params, &p))
			if p.URI == uri {
				last, seen = p.Diagnostics, true
				settled = time.Now().Add(*settle)
				for _, d := range last {
					if *until != "" && d.Source == *until {
						settled = time.Now()
					}
				}
			}
		case <-time.After(time.Second):
		}
		if seen && time.Now().After(settled) {
			break
		}
	}
	if !seen {
		fmt.Fprintln(os.Stderr, "lspcheck: no diagnostics published")
		os.Exit(1)
	}
	for _, d := range last {
		fmt.Printf("%s: %d:%d: %s\n", d.Source, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Message)
	}
}

type diagnostic struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
	} `json:"range"`
	Source  string `json:"source"`
	Message string `json:"message"`
}

type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type conn struct {
	w io.Writer
	r *bufio.Reader
}

func (c *conn) send(id int, method string, params any) {
	m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != 0 {
		m["id"] = id
	}
	c.write(m)
}

func (c *conn) reply(id json.RawMessage) {
	c.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": nil})
}

func (c *conn) write(m any) {
	b, err := json.Marshal(m)
	check(err)
	_, err = fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	check(err)
}

func (c *conn) read() (message, error) {
	length := 0
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			return message{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return message{}, err
	}
	var m message
	err := json.Unmarshal(body, &m)
	return m, err
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspcheck:", err)
		os.Exit(1)
	}
}
