package hedge

import (
	"math"
	"sync"
	"time"
)

// latencies is a decaying log-scale histogram of recent latencies: adding
// is O(1), a quantile is a scan of 128 counters, and old samples fade as the
// counts are halved every 1024 additions.
type latencies struct {
	mu     sync.Mutex
	counts [128]uint32
	total  uint32
	adds   uint32
}

// bucket i covers [2^(i/4), 2^((i+1)/4)) microseconds: 19% resolution
// from 1 µs to 2^32 µs (71 minutes).
func bucketOf(d time.Duration) int {
	us := d.Microseconds()
	if us < 1 {
		return 0
	}
	i := 0
	for v := us; v > 1; v >>= 1 {
		i += 4
	}
	// Refine within the power of two by quarters.
	base := int64(1) << (i / 4)
	for q := 1; q < 4 && float64(us) >= float64(base)*pow2q(q); q++ {
		i++
	}
	if i > 127 {
		i = 127
	}
	return i
}

func pow2q(q int) float64 { return [4]float64{1, 1.189207, 1.414214, 1.681793}[q] }

func bucketUpper(i int) time.Duration {
	us := float64(int64(1)<<(i/4)) * pow2q(i%4)
	return time.Duration(us * float64(time.Microsecond) * 1.189207)
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.counts[bucketOf(d)]++
	l.total++
	l.adds++
	if l.adds >= 1024 {
		l.adds, l.total = 0, 0
		for i := range l.counts {
			l.counts[i] /= 2
			l.total += l.counts[i]
		}
	}
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total < 20 {
		return 0, false
	}
	// The q-quantile is the value of rank ceil(q·n).
	want := uint32(math.Ceil(q * float64(l.total)))
	var seen uint32
	for i, c := range l.counts {
		seen += c
		if seen >= want {
			return bucketUpper(i), true
		}
	}
	return bucketUpper(len(l.counts) - 1), true
}
