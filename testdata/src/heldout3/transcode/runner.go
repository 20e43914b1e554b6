// Package transcode runs transcoding jobs in background workers.
package transcode

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"heldout3/drm"
	"heldout3/store"
)

// Job is one asset to transcode.
type Job struct {
	AssetID  string
	Source   string
	Profiles []string
}

// Runner owns the worker pool.
type Runner struct {
	store   *store.Store
	drm     *drm.Client
	hookURL string
	jobs    chan Job
	wg      sync.WaitGroup
}

// NewRunner returns a runner with a bounded queue.
// heldout: clean — constructor, no I/O
func NewRunner(st *store.Store, dc *drm.Client, hookURL string) *Runner {
	return &Runner{store: st, drm: dc, hookURL: hookURL, jobs: make(chan Job, 64)}
}

// JobContext returns a fresh context for one transcoding job.
// heldout: clean — returns a bounded root; no context in scope here
func JobContext(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// Submit queues a job without blocking.
// heldout: clean — channel send only
func (r *Runner) Submit(j Job) bool {
	select {
	case r.jobs <- j:
		return true
	default:
		return false
	}
}

// Start launches n workers on the service's lifetime context.
// heldout: clean — hands ctx to workers it tracks with the WaitGroup
func (r *Runner) Start(ctx context.Context, n int) {
	for i := 0; i < n; i++ {
		r.wg.Add(1)
		go r.worker(ctx)
	}
}

// worker takes jobs until the queue closes or ctx is done.
// heldout: clean — passes ctx down
func (r *Runner) worker(ctx context.Context) {
	defer r.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-r.jobs:
			if !ok {
				return
			}
			if err := r.process(ctx, j); err != nil {
				log.Printf("transcode %s: %v", j.AssetID, err)
			}
		}
	}
}

// process transcodes one job with a 30-minute budget.
// heldout: ctxdrop — exec.Command runs ffmpeg while jctx is in scope (CommandContext exists), so a cancelled job keeps encoding
func (r *Runner) process(ctx context.Context, j Job) error {
	jctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	var rs []store.Rendition
	for _, p := range j.Profiles {
		out := "/var/spool/transcode/" + j.AssetID + "-" + p + ".mp4"
		cmd := exec.Command("ffmpeg", "-i", j.Source, "-preset", p, out)
		if err := cmd.Run(); err != nil {
			r.recordFailure(jctx, j, err)
			return err
		}
		rs = append(rs, store.Rendition{Profile: p, URL: out})
	}
	if err := r.store.SaveRenditions(jctx, j.AssetID, rs); err != nil {
		return err
	}
	r.announce(j)
	return r.finish(jctx, j)
}

// finish clears the stale flag of derived assets.
// heldout: ctxdrop — store.MarkStale takes no context and runs db.Exec on its own background context
func (r *Runner) finish(ctx context.Context, j Job) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return r.store.MarkStale(j.AssetID + "/preview")
}

// recordFailure stores a job's error even if the job's context has expired.
// heldout: notimeout — context.WithoutCancel drops the deadline and the result reaches ExecContext unbounded
func (r *Runner) recordFailure(ctx context.Context, j Job, cause error) {
	dctx := context.WithoutCancel(ctx)
	if err := r.store.RecordFailure(dctx, j.AssetID, cause.Error()); err != nil {
		log.Printf("record failure: %v", err)
	}
}

// audit writes an audit record that survives the caller's cancellation, within 5 s.
// heldout: clean — WithoutCancel is bounded again by WithTimeout
func (r *Runner) audit(ctx context.Context, kind, msg string) {
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := r.store.AppendAudit(actx, kind, msg); err != nil {
		log.Printf("audit: %v", err)
	}
}

// PollPending logs the queue depth every interval until ctx is done.
// heldout: ctxdrop — store.CountPending makes its own unbounded context.Background() for a query; ctx is dropped
func (r *Runner) PollPending(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n, err := r.store.CountPending()
			if err != nil {
				log.Printf("pending: %v", err)
				continue
			}
			log.Printf("pending jobs: %d", n)
		}
	}
}

// WatchStale re-queues stale assets once a minute; started from main.
// heldout: notimeout — ticker loop passes an unbounded context.Background() to GetAsset every tick
func (r *Runner) WatchStale(ids func() []string) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for range t.C {
		ctx := context.Background()
		for _, id := range ids() {
			a, err := r.store.GetAsset(ctx, id)
			if err != nil || !a.Stale {
				continue
			}
			r.Submit(Job{AssetID: a.ID})
		}
	}
}

// notify posts a progress event to the webhook.
// heldout: clean — context parameter; the caller decides the bound
func (r *Runner) notify(ctx context.Context, j Job, state string) error {
	body, _ := json.Marshal(map[string]string{"asset": j.AssetID, "state": state})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.hookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// reportProgress tells the webhook a job started, without waiting.
// heldout: notimeout — fire-and-forget goroutine uses context.Background(), which reaches DefaultClient.Do with no deadline and no client Timeout
func (r *Runner) reportProgress(ctx context.Context, j Job) {
	if ctx.Err() != nil {
		return
	}
	go func() {
		if err := r.notify(context.Background(), j, "started"); err != nil {
			log.Printf("notify: %v", err)
		}
	}()
}

// announce tells the webhook a job finished, without waiting.
// heldout: clean — fire-and-forget goroutine with its own 5 s bound
func (r *Runner) announce(j Job) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := r.notify(ctx, j, "done"); err != nil {
			log.Printf("notify: %v", err)
		}
	}()
}

// ProcessBatch issues licenses for a batch in parallel and waits for all.
// heldout: ctxdrop — goroutines the function waits for pass context.Background() to IssueLicense instead of ctx
func (r *Runner) ProcessBatch(ctx context.Context, jobs []Job) []error {
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func(i int, j Job) {
			defer wg.Done()
			_, errs[i] = r.drm.IssueLicense(context.Background(), &drm.LicenseRequest{ContentID: j.AssetID, Policy: "default"})
		}(i, j)
	}
	wg.Wait()
	r.reportProgress(ctx, Job{AssetID: "batch"})
	return errs
}

// FanOut checks entitlements in parallel on the caller's context.
// heldout: clean — waited goroutines use ctx
func (r *Runner) FanOut(ctx context.Context, user string, ids []string) map[string]bool {
	var mu sync.Mutex
	out := make(map[string]bool)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			ok, _ := r.drm.CheckEntitlement(ctx, user, id)
			mu.Lock()
			out[id] = ok
			mu.Unlock()
		}(id)
	}
	wg.Wait()
	return out
}

// licenseWithRetry issues a license, retrying three times.
// heldout: notimeout — once ctx has expired the loop swaps in context.Background() and retries the RPC with no deadline
func (r *Runner) licenseWithRetry(ctx context.Context, j Job) (*drm.License, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		lic, err := r.drm.IssueLicense(ctx, &drm.LicenseRequest{ContentID: j.AssetID})
		if err == nil {
			return lic, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			ctx = context.Background()
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
	return nil, lastErr
}

// step carries a unit of finalisation work.
type step struct {
	ctx     context.Context
	assetID string
	rs      []store.Rendition
}

// runStep executes one step on the context it carries.
// heldout: clean — uses the context it is handed in the struct
func (r *Runner) runStep(s step) error {
	return r.store.SaveRenditions(s.ctx, s.assetID, s.rs)
}

// Finalize saves the final renditions of a job.
// heldout: ctxdrop — context.Background() is put in the step's ctx field while ctx is in scope
func (r *Runner) Finalize(ctx context.Context, j Job, rs []store.Rendition) error {
	if _, err := r.licenseWithRetry(ctx, j); err != nil {
		return err
	}
	return r.runStep(step{ctx: context.Background(), assetID: j.AssetID, rs: rs})
}

// Stop closes the queue and waits for the workers, up to ctx's deadline.
// heldout: clean — the fresh context is made after ctx is done, bounded, for a final audit record
func (r *Runner) Stop(ctx context.Context) {
	close(r.jobs)
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		r.audit(fctx, "shutdown", "workers interrupted")
	}
}
