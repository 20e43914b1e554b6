// Command cacheprog is a minimal GOCACHEPROG program backed by a
// directory, which several machines (or several GOCACHE directories) can
// share: the go command's build and vet results put by one are got by
// the others. It exists to test and document resilvet's shared-cache
// path (docs/build-systems.md); production setups use a remote store.
//
//	GOCACHEPROG="cacheprog -dir /shared/cache" go vet -vettool=$(command -v resilvet) ./...
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// request and response follow the go command's cacheprog protocol
// (cmd/go/internal/cacheprog): JSON objects, one per line; a put with a
// body is followed by the body as a base64 JSON string.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

// entry is what an action ID maps to in the store.
type entry struct {
	OutputID []byte
	Size     int64
	Time     time.Time
}

func main() {
	dir := flag.String("dir", "", "the shared store (created if missing)")
	flag.Parse()
	if *dir == "" || !filepath.IsAbs(*dir) {
		fmt.Fprintln(os.Stderr, "cacheprog: -dir must be an absolute path")
		os.Exit(2)
	}
	s := store{dir: *dir}
	if err := s.serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cacheprog:", err)
		os.Exit(1)
	}
}

type store struct{ dir string }

func (s store) serve(in io.Reader, out io.Writer) error {
	for _, d := range []string{"actions", "outputs"} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(out)
	enc := json.NewEncoder(w)
	send := func(r response) error {
		if err := enc.Encode(r); err != nil {
			return err
		}
		return w.Flush()
	}
	if err := send(response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(in))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var body []byte
		if req.Command == "put" && req.BodySize > 0 {
			if err := dec.Decode(&body); err != nil {
				return fmt.Errorf("reading the body of put %d: %v", req.ID, err)
			}
		}
		resp := response{ID: req.ID}
		var err error
		switch req.Command {
		case "get":
			resp, err = s.get(req)
		case "put":
			resp, err = s.put(req, body)
		case "close":
			return send(resp)
		default:
			err = fmt.Errorf("unknown command %q", req.Command)
		}
		if err != nil {
			resp = response{ID: req.ID, Err: err.Error()}
		}
		if err := send(resp); err != nil {
			return err
		}
	}
}

func (s store) actionPath(id []byte) string {
	return filepath.Join(s.dir, "actions", hex.EncodeToString(id))
}

func (s store) outputPath(id []byte) string {
	return filepath.Join(s.dir, "outputs", hex.EncodeToString(id))
}

func (s store) get(req request) (response, error) {
	b, err := os.ReadFile(s.actionPath(req.ActionID))
	if errors.Is(err, os.ErrNotExist) {
		return response{ID: req.ID, Miss: true}, nil
	}
	if err != nil {
		return response{}, err
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return response{ID: req.ID, Miss: true}, nil // a torn write: a miss
	}
	path := s.outputPath(e.OutputID)
	if fi, err := os.Stat(path); err != nil || fi.Size() != e.Size {
		return response{ID: req.ID, Miss: true}, nil
	}
	return response{ID: req.ID, OutputID: e.OutputID, Size: e.Size, Time: &e.Time, DiskPath: path}, nil
}

func (s store) put(req request, body []byte) (response, error) {
	if int64(len(body)) != req.BodySize {
		return response{}, fmt.Errorf("put %d: body of %d bytes, want %d", req.ID, len(body), req.BodySize)
	}
	path := s.outputPath(req.OutputID)
	if err := writeAtomic(path, body); err != nil {
		return response{}, err
	}
	meta, err := json.Marshal(entry{OutputID: req.OutputID, Size: req.BodySize, Time: time.Now()})
	if err != nil {
		return response{}, err
	}
	if err := writeAtomic(s.actionPath(req.ActionID), meta); err != nil {
		return response{}, err
	}
	return response{ID: req.ID, DiskPath: path}, nil
}

// writeAtomic writes data to path through a rename, so that readers on
// other machines never see a partial file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
